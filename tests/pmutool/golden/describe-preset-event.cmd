status 0
describe
PAPI_tot_ins
