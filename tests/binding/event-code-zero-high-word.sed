# A 2-cell event_code whose high word is 0 (must be written as one cell).
# expect: pmu_dts@0: events:cycles:event_code: 'oneOf' conditional failed
# expect: 0 is less than the minimum of 1
/^[[:space:]]*events \{$/,$ {
	/^[[:space:]]*cycles \{$/,/\};$/ s/event_code = <0x600f4>;/event_code = <0x0 0x600f4>;/
}
