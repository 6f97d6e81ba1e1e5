# A refused-code check (POWER9's DD2.2 list) without its codes.
# expect: constraints:checks:check-1: 'codes' is a required property
/^[[:space:]]*check-1 \{$/,/\};/{/^[[:space:]]*codes = /d}
