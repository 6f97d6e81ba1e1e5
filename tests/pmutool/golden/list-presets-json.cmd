status 0
list
--json
PAPI_BR_N*
