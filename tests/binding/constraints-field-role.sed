# A bad role in a constraints/fields node (checked through the $ref to the
# evt_code_format field schema).
# expect: pmu_dts@0: constraints:fields:ebb:role:0: 'counter' is not one of ['pmc', 'mark', 'unit']
/^[[:space:]]*fields \{$/,/^\t\t\t\t\};$/ {
	/^[[:space:]]*ebb \{$/,/\};$/ s/^([[:space:]]*)linux-defined;/&\n\1role = "counter";/
}
