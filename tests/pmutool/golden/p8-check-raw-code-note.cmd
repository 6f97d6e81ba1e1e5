status 0
--pmu
power8
check
0x4d05e,PM_CYC
