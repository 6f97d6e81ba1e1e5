status 1
--pmu
power9
check
PM_CYC,0x2c056
