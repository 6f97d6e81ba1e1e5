# An event-code field whose bit range ends past bit 63.
# expect: pmu_dts@0: evt_code_format:IFM:bits:0:1: 64 is greater than the maximum of 63
s/bits = <60 61>;/bits = <60 64>;/
