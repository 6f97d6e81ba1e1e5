status 0
--hv-mode
describe
0x100fc:k
