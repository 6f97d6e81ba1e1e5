# A constraint kind other than equal, per-pmc or count.
# expect: pmu_dts@0: constraints:sample:kind:0: 'same' is not one of ['equal', 'per-pmc', 'count']
/^[[:space:]]*sample \{$/,/\};$/ s/kind = "equal";/kind = "same";/
