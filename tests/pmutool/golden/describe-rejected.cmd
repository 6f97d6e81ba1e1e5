status 0
describe
0x700f0
