status 0
describe
PM_RUN_INST_CMPL
