# Semantic checks and loader errors: each case in tests/checks/cases.txt runs
# `pmugen --check` and must print exactly its golden diagnostics.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/checks/cases.txt check_cases REGEX "^[a-z]")
pmu_require_files(check_cases "a case line in tests/checks/cases.txt")
foreach(line ${check_cases})
  string(REGEX REPLACE " +" ";" words "${line}")
  list(GET words 0 case_name)
  list(REMOVE_AT words 0)
  add_test(NAME check/${case_name}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/checks/run_case.sh ${PMUGEN} ${case_name} ${words})
endforeach()

# The rfc check (off unless asked for) on POWER10 and POWER9: each rule the
# kernel RFC's parser cannot express or reads differently, exactly.
foreach(pmu power10 power9 power8)
  add_test(NAME check/rfc-${pmu}
    COMMAND sh -c "cd \"$2\" && \"$1\" --check -q -W rfc pmus/$3.yaml 2>&1 >/dev/null | diff -u tests/checks/rfc-$3.expected -" sh
      ${PMUGEN} ${CMAKE_SOURCE_DIR} ${pmu})
endforeach()
# POWER9 with its PMC4 flag off the RFC's group-rule bit (54): the rule
# cannot be said through cache-group, and the check says the RFC lacks it.
add_test(NAME check/rfc-pmc4-unsaid
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/check-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 cp \"$2/power9-events.yaml\" \"$t/\" &&
                 sed 's/slot: \\[54, 54\\]/slot: [53, 53]/' \"$2/power9.yaml\" > \"$t/power9.yaml\" &&
                 ! cmp -s \"$2/power9.yaml\" \"$t/power9.yaml\" &&
                 \"$1\" --check -q -W rfc \"$t/power9.yaml\" 2>&1 >/dev/null |
                   grep \"constraint 'cache-pmc4': its value is a flag, which the RFC cannot read\"" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus)
# ... and nothing at all without -W rfc.
add_test(NAME check/rfc-off-by-default
  COMMAND sh -c "out=$(\"$1\" --check -q \"$2\" 2>&1 >/dev/null) && test -z \"$out\" || { echo \"$out\"; exit 1; }" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
