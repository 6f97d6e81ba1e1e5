status 2
list
--no-lpar
PM_RUN_CYC
