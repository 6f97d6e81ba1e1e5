# An event-class other than primary or alternative.
# expect: pmu_dts@0: events:l1-load-misses-alt:event-class:0: 'secondary' is not one of ['primary', 'alternative']
s/event-class = "alternative";/event-class = "secondary";/
