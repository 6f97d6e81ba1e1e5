# With --all-events: an unknown property in an imported event.
# options: --all-events
# expect: pmu_dts@0: events:PM_CYC: 'bogus' does not match any of the regexes
s/^([[:space:]]*)PM_CYC \{$/&\n\1\tbogus;/
