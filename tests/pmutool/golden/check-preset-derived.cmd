status 1
check
PAPI_L1_DCM-all-10000
