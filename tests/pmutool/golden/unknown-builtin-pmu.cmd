status 3
--pmu
power11
check
PM_CYC
