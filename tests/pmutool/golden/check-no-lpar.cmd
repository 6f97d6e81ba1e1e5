status 0
--no-lpar
check
--json
PM_RUN_INST_CMPL:u
