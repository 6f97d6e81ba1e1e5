status 2
check
-e
task-clock
PM_CYC
