# PAPI presets (tests/presets/presets_test.c): look-up without case, listing,
# exact evaluation of add, sub and postfix presets against hand-computed
# values, presets in event strings (cpc form, modifiers) and the refusal of a
# derived one, the overflow-counter-unknown flag; from a toy PMU's YAML and
# DTB (tests/presets/toy.yaml) and from POWER10's built-in tables, YAML and
# firmware-set DTB.  Loader errors are golden cases in tests/checks
# (bad-preset), binding and schema rejects in tests/binding and tests/schema.
set(PRESET_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/presets)
set(PRESET_TOY_DTB ${CMAKE_CURRENT_BINARY_DIR}/presets-toy.dtb)
set(PRESET_P10_DTB ${CMAKE_CURRENT_BINARY_DIR}/presets-power10.dtb)
add_executable(presets_test ${PRESET_TESTS}/presets_test.c)
target_include_directories(presets_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(presets_test PRIVATE pmurt_internal)
add_test(NAME presets/dtbs COMMAND sh -c
  "\"$0\" -q --all-events -f dtb -o \"$1\" \"$2\" && \"$0\" -q -f dtb -o \"$3\" \"$4\""
  ${PMUGEN} ${PRESET_TOY_DTB} ${PRESET_TESTS}/toy.yaml
  ${PRESET_P10_DTB} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
set_tests_properties(presets/dtbs PROPERTIES FIXTURES_SETUP preset_dtbs)
add_test(NAME presets/api COMMAND presets_test ${PRESET_TESTS}/toy.yaml ${PRESET_TOY_DTB}
  ${CMAKE_SOURCE_DIR}/pmus/power10.yaml ${PRESET_P10_DTB})
set_tests_properties(presets/api PROPERTIES FIXTURES_REQUIRED preset_dtbs)

# POWER9's presets are PAPI's POWER9 section (tests/data/papi), line by line:
# same kinds, same events in the same order, the two names PAPI gives twice
# kept at their first line, nothing else.
add_test(NAME presets/power9-papi-csv
  COMMAND ${PMU_SYSTEM_PYTHON3} ${PRESET_TESTS}/papi_csv_compare.py $<TARGET_FILE:pmutool> power9
          ${TESTDATA}/papi/papi_events-power9.csv PAPI_L2_ICM,PAPI_LST_INS)
# POWER8's are PAPI 7.0's POWER8 section the same way (its #n/a lines are no
# PRESET lines; no name is given twice).
add_test(NAME presets/power8-papi-csv
  COMMAND ${PMU_SYSTEM_PYTHON3} ${PRESET_TESTS}/papi_csv_compare.py $<TARGET_FILE:pmutool> power8
          ${TESTDATA}/papi/papi_events-power8.csv "")
