status 1
check
--json
0xf0,0xf0,bus-cycles
