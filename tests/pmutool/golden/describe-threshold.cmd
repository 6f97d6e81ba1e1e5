status 0
describe
cpu/event=0x35340401e0,config1=1000/
