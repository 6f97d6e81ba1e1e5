# An unknown property in an evt_code_format field node.
# expect: pmu_dts@0: evt_code_format:PMCxSEL: 'bogus-prop' does not match any of the regexes
/^[[:space:]]*evt_code_format \{$/,/^\t\t\t\};$/ {
	/^[[:space:]]*PMCxSEL \{$/,/\};$/ s/^([[:space:]]*)length = <8>;/&\n\1bogus-prop = <1>;/
}
