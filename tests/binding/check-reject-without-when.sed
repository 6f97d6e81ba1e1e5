# A reject check without the condition that makes it reject.
# expect: pmu_dts@0: constraints:checks:check-0: 'when' is a required property
/when = "only when sample is 0x10";/d
