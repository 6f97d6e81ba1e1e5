# An unknown property in a register's bit-field node.
# expect: pmu_dts@0: sprs:mmcr:mmcr0:PMC1CE: 'bogus-prop' does not match any of the regexes
s/^([[:space:]]*)bits = <15 15>;/&\n\1bogus-prop = <1>;/
