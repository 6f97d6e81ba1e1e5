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
foreach(pmu power10 power9)
  add_test(NAME check/rfc-${pmu}
    COMMAND sh -c "cd \"$2\" && \"$1\" --check -q -W rfc pmus/$3.yaml 2>&1 >/dev/null | diff -u tests/checks/rfc-$3.expected -" sh
      ${PMUGEN} ${CMAKE_SOURCE_DIR} ${pmu})
endforeach()
# ... and nothing at all without -W rfc.
add_test(NAME check/rfc-off-by-default
  COMMAND sh -c "out=$(\"$1\" --check -q \"$2\" 2>&1 >/dev/null) && test -z \"$out\" || { echo \"$out\"; exit 1; }" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
