# An encoding-* property on a node whose transform is not mantissa-exponent.
# expect: evt_code_format:SDAR_MODE:encoding-exponent-step: False schema does not allow
/^[[:space:]]*SDAR_MODE \{$/,/\};$/ s/^([[:space:]]*)transform = "sdar-mode";/&\n\1encoding-exponent-step = <2>;/
