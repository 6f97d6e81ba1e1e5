status 2
--no-per-task
describe
PM_RUN_CYC
