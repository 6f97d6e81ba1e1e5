status 0
list
PM_RUN_INST*
