# A perf event's alias-of given as a number.
# options: --all-events
# expect: alias-of: 
s/^([[:space:]]*)alias-of = "PM_L1MISS_LAT_EXC_1024";/\1alias-of = <1024>;/
