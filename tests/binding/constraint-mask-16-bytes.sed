# skiboot's 16-byte constraint-mask (/bits/ 64 <hi lo>), which the RFC reads
# wrong: a 64-bit value must be 8 bytes, <hi lo>.
# expect: pmu_dts@0: constraints:sample:constraint-mask:0: [0, 2031616] is too long
s|constraint-mask = <0x0 0x1f0000>;|constraint-mask = /bits/ 64 <0x0 0x1f0000>;|
