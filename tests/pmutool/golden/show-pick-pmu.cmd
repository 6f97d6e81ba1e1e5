status 0
--pmu
power9
--show-pick
list
PM_RUN_INST_CMPL
