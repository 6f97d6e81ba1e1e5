status 0
check
PAPI_L2_DCM-all-10000,papi_tot_ins:u
