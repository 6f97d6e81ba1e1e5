# mantissa-exponent without one of its encoding-* properties.
# expect: 'encoding-clamp' is a required property
/^[[:space:]]*thresh_cmp \{$/,/\};$/ { /encoding-clamp = /d }
