# The pmu node's pvr written as a string.
# expect: pmu_dts@0: pvr: 
s/^([[:space:]]*)pvr = <0x4e1202>;/\1pvr = "DD2.2";/
