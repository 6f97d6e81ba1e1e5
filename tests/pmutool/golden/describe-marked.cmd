status 0
describe
PM_MRK_INST_CMPL:u
