status 3
--pmu
power12
check
PM_CYC
