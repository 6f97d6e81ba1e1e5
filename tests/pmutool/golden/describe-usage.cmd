status 2
describe
--json
PM_RUN_CYC
