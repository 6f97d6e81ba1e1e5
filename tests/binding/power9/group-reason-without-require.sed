# The group rule without the value it requires.
# expect: 'group-require' is a dependency of 'group-reason'
/^[[:space:]]*l2l3-pmc4 \{$/,/\};/{/^[[:space:]]*group-require = /d}
