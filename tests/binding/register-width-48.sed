# A counter whose register-width is neither 32 nor 64.
# expect: pmu_dts@0: sprs:pmcs:pmc1:register-width:0:0: 48 is not one of [32, 64]
/^[[:space:]]*pmc1 \{$/,/\};$/ s/register-width = <32>;/register-width = <48>;/
