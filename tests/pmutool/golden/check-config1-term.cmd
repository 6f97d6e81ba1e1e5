status 0
check
--json
PM_MRK_INST_CMPL,config1=1000
