status 2
describe
--per-task
PM_RUN_CYC
