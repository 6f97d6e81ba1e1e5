# A postfix formula on a preset that is not derived by postfix.
# expect: postfix: False schema does not allow ['N0|']
/^[[:space:]]*PAPI_L1_LDM \{$/,/\};$/ { s/^([[:space:]]*)events = (.*)$/\1events = \2\n\1postfix = "N0|";/ }
