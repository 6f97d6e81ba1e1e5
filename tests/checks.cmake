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
