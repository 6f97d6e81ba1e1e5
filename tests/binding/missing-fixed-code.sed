# A fixed counter (programmable = 0) without its [ext] fixed-code.
# expect: pmu_dts@0: sprs:pmcs:pmc5: 'fixed-code' is a required property
/fixed-code = <0x0 0x500fa>;/d
