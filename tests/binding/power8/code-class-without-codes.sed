# The fab-match code class without its codes.
# expect: code-classes:fab-match: 'codes' is a required property
/^[[:space:]]*fab-match \{$/,/\};/{/^[[:space:]]*codes = /d}
