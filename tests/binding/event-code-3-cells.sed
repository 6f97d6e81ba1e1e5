# An event_code of 3 cells (the RFC reads 1, 2 or 4).
# expect: pmu_dts@0: events:cycles:event_code: 'oneOf' conditional failed
# expect: [1, 2, 3] is too long
# expect: [1, 2, 3] is too short
/^[[:space:]]*events \{$/,$ {
	/^[[:space:]]*cycles \{$/,/\};$/ s/event_code = <0x600f4>;/event_code = <0x1 0x2 0x3>;/
}
