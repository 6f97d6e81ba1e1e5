status 0
--pmu
@SRC@/pmus/power10.yaml
check
--json
PM_RUN_INST_CMPL:u,PM_RUN_CYC,cpu/pmc=1,pmcxsel=0xf0/
