# A control register without its [ext] mmcr-index.
# expect: pmu_dts@0: sprs:mmcr:mmcr1: 'mmcr-index' is a required property
/mmcr-index = <1>;/d
