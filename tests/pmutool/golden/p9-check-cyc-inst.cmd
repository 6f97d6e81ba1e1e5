status 0
--pmu
power9
check
run-cycles,PM_CYC,PM_INST_CMPL,PM_RUN_INST_CMPL
