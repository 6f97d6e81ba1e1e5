status 0
describe
papi_stl_icy
