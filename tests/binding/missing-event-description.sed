# An event without a description (a property handled by a pattern, since
# "description" is a json-schema keyword).
# expect: pmu_dts@0: events:cycles: 'description' is a required property
/description = "Number of processor cycles";/d
