status 0
--pmu
power8
describe
PM_BR_CMPL
