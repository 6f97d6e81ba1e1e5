status 1
check
cycles,bus-cycles
