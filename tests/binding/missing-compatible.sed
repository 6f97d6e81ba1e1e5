# The pmu node without its compatible: both schemas report it (the pmu
# schema still selects the node by its name).
# expect: pmus: pmu_dts@0: 'compatible' is a required property
# expect: dtb: pmu_dts@0: 'compatible' is a required property
/compatible = "ibm,power-pmu";/d
