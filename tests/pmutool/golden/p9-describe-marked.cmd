status 0
--pmu
power9
describe
PM_MRK_INST_CMPL
