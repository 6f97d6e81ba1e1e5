status 2
check
PM_RUN_CYCX
