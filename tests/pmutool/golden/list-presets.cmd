status 0
list
papi_l1_d*
