# pmu_dts@0 without reg: dtc warns and both schemas report it.
# expect: Warning (unit_address_vs_reg): /pmus/pmu_dts@0: node has a unit name, but no reg or ranges property
# expect: pmus: pmu_dts@0: 'reg' is a required property
# expect: dtb: pmu_dts@0: 'reg' is a required property
/^[[:space:]]*reg = <0>;$/d
