# generic-events' unsupported is an empty property, not a list.
# expect: pmu_dts@0: generic-events:bus-cycles:unsupported: 'oneOf' conditional failed
/^[[:space:]]*bus-cycles \{$/,/\};$/ s/unsupported;/unsupported = "x";/
