status 0
--no-lpar
describe
PM_RUN_INST_CMPL:uk
