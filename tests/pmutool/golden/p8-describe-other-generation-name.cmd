status 2
--pmu
power8
describe
PM_DISP_STALL_CYC
