# /pmus with #size-cells other than 0.
# expect: Warning (reg_format): /pmus/pmu_dts@0:reg: property has invalid length
# expect: pmus: #size-cells:0:0: 0 was expected
s/#size-cells = <0>;/#size-cells = <1>;/
