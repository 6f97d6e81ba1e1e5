status 0
describe
0xf0
