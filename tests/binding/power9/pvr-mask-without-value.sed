# A check's PVR selector cut in half: pvr-mask without pvr-value.
# expect: 'pvr-value' is a dependency of 'pvr-mask'
/^[[:space:]]*check-0 \{$/,/\};/{/^[[:space:]]*pvr-value = /d}
