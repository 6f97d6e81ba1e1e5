status 0
--hv-mode
check
--json
PM_RUN_INST_CMPL:u
