# More counters than POWER has.
# expect: pmu_dts@0: nr_pmc:0:0: 9 is greater than the maximum of 8
s/nr_pmc = <6>;/nr_pmc = <9>;/
