# A node the binding does not have (skiboot's mmcr2 {fcs fcp fch}).
# expect: pmu_dts@0: 'mmcr2' does not match any of the regexes
s/^([[:space:]]*)mmcr0-setters \{$/\1mmcr2 { fcs { mmcr = <2>; pgm_base = <63>; stride = <9>; use_stride; }; };\n&/
