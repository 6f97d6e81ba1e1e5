# The group rule without the value it requires.
# expect: 'group-require' is a dependency of 'group-reason'
/^[[:space:]]*cache-pmc4 \{$/,/\};/{/^[[:space:]]*group-require = /d}
