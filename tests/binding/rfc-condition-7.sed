# A condition code the RFC does not define (asm/dts_pmu.h has 0..6).
# expect: constraints:sample:condition:0:0: 7 is greater than the maximum of 6
/^[[:space:]]*sample \{$/,/\};$/ s/condition = <1>;/condition = <7>;/
