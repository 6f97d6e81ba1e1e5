# A mantissa wider than 63 bits.
# expect: constraints:threshold:thresh-cmp:encoding-mantissa-bits:0:0: 64 is greater than the maximum of 63
/^[[:space:]]*thresh-cmp \{$/,/\};$/ s/encoding-mantissa-bits = <8>;/encoding-mantissa-bits = <64>;/
