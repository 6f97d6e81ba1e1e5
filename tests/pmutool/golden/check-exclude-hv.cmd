status 0
check
--json
PM_RUN_INST_CMPL:u
