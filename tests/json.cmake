# perf JSON and C tables: import-perf-json, --format json, --format c.
# Programs live in tests/json/, their inputs in tests/json/data/.
set(JSON_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/json)
set(JSON_OUT ${CMAKE_CURRENT_BINARY_DIR}/json)
set(P10_PERF_JSON ${TESTDATA}/perf-json/power10)
file(MAKE_DIRECTORY ${JSON_OUT})

add_executable(json_compare ${JSON_TESTS}/json_compare.c)
target_link_libraries(json_compare PRIVATE PkgConfig::JANSSON)

add_executable(c_tables_test ${JSON_TESTS}/c_tables_test.c)
# links libpmurt's static archive: it rebuilds the model the runtime's way
target_link_libraries(c_tables_test PRIVATE pmurt_internal PkgConfig::YAML PkgConfig::FDT)
target_include_directories(c_tables_test PRIVATE ${CMAKE_SOURCE_DIR}/runtime
  ${CMAKE_SOURCE_DIR}/model ${CMAKE_SOURCE_DIR}/validate ${CMAKE_SOURCE_DIR}/tables)

# The emitters are built into the escapes test directly, to test them without
# pmugen's semantic checks (the odd events fit no real PMU).
add_executable(escapes_test ${JSON_TESTS}/escapes_test.c
  ${CMAKE_SOURCE_DIR}/pmugen/import_perf_json.c
  ${CMAKE_SOURCE_DIR}/pmugen/emit_json.c
  ${CMAKE_SOURCE_DIR}/pmugen/outbuf.c
  ${CMAKE_SOURCE_DIR}/pmugen/emit_c.c)
target_include_directories(escapes_test PRIVATE ${CMAKE_SOURCE_DIR}/pmugen)
target_link_libraries(escapes_test PRIVATE pmumodel PkgConfig::JANSSON)

# (a) --format json gives back exactly perf's power10 events: names, codes
#     (as numbers) and descriptions, nothing missing or extra.
add_test(NAME json-roundtrip-power10
  COMMAND sh -c "\"$0\" --format json -o \"$1\" \"$2\" && \"$3\" \"$1\" \"$4\""
    ${PMUGEN} ${JSON_OUT}/power10.json ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
    $<TARGET_FILE:json_compare> ${P10_PERF_JSON})

add_test(NAME json-roundtrip-power9
  COMMAND sh -c "\"$0\" --format json -o \"$1\" \"$2\" && \"$3\" \"$1\" \"$4\""
    ${PMUGEN} ${JSON_OUT}/power9.json ${CMAKE_SOURCE_DIR}/pmus/power9.yaml
    $<TARGET_FILE:json_compare> ${TESTDATA}/perf-json/power9)

add_test(NAME json-roundtrip-power8
  COMMAND sh -c "\"$0\" --format json -o \"$1\" \"$2\" && \"$3\" \"$1\" \"$4\""
    ${PMUGEN} ${JSON_OUT}/power8.json ${CMAKE_SOURCE_DIR}/pmus/power8.yaml
    $<TARGET_FILE:json_compare> ${TESTDATA}/perf-json/power8)

# (b) the checked-in events file is what the importer makes of perf's files.
add_test(NAME json-import-reproducible
  COMMAND sh -c "\"$0\" import-perf-json \"$1\" -o \"$2\" && diff -u \"$3\" \"$2\""
    ${PMUGEN} ${P10_PERF_JSON} ${JSON_OUT}/power10-events.yaml
    ${CMAKE_SOURCE_DIR}/pmus/power10-events.yaml)

add_test(NAME json-import-reproducible-power9
  COMMAND sh -c "\"$0\" import-perf-json \"$1\" -o \"$2\" && diff -u \"$3\" \"$2\""
    ${PMUGEN} ${TESTDATA}/perf-json/power9 ${JSON_OUT}/power9-events.yaml
    ${CMAKE_SOURCE_DIR}/pmus/power9-events.yaml)

add_test(NAME json-import-reproducible-power8
  COMMAND sh -c "\"$0\" import-perf-json \"$1\" -o \"$2\" && diff -u \"$3\" \"$2\""
    ${PMUGEN} ${TESTDATA}/perf-json/power8 ${JSON_OUT}/power8-events.yaml
    ${CMAKE_SOURCE_DIR}/pmus/power8-events.yaml)

# (c) the built-in tables: every name through the hash index, any case, has
#     the YAML's code; unknown names miss; the tables rebuild an equal model.
add_test(NAME c-tables-power10
  COMMAND c_tables_test ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
add_test(NAME c-tables-power9
  COMMAND c_tables_test ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)
add_test(NAME c-tables-power8
  COMMAND c_tables_test ${CMAKE_SOURCE_DIR}/pmus/power8.yaml)

# (d) import errors name the file and the line:col of the problem.
function(json_import_error name dir regex)
  add_test(NAME json-import-error-${name}
    COMMAND ${CMAKE_COMMAND} -DPMUGEN=${PMUGEN} -DDIR=${JSON_TESTS}/data/${dir}
      -DEXPECT=${regex} -P ${JSON_TESTS}/expect_error.cmake)
endfunction()
json_import_error(syntax bad-syntax "bad-syntax/broken\\.json:9:15: error: .*expected")
json_import_error(missing-code missing-code "missing-code/pmc\\.json:7:3: error: .*no EventCode")
json_import_error(bad-hex bad-hex "bad-hex/pmc\\.json:7:3: error: .*0x100FG.*not a hex number")
json_import_error(no-dir no-such-dir "no-such-dir: error: ")
# its own --help, on standard output, exit 0
add_test(NAME json-import-help
  COMMAND sh -c "\"$0\" import-perf-json --help > \"$1\" && grep -q '^Usage: pmugen import-perf-json DIR \\[-o FILE\\]$' \"$1\" && grep -q -- '--help' \"$1\""
    ${PMUGEN} ${JSON_OUT}/import-help.txt)

# Odd strings (quotes, control characters, UTF-8, "??=", "*/") survive
# import -> YAML -> model -> JSON and C; the C they give compiles cleanly.
add_test(NAME json-escapes
  COMMAND escapes_test ${JSON_TESTS}/data/escapes ${JSON_OUT}/escapes_tables.c)
set_tests_properties(json-escapes PROPERTIES FIXTURES_SETUP escapes_c)
add_test(NAME json-escapes-c-compiles
  COMMAND ${CMAKE_C_COMPILER} -std=gnu11 -Wall -Wextra -Werror -Wshadow
    -Wstrict-prototypes -Wmissing-prototypes -I${CMAKE_SOURCE_DIR}/tables
    -c ${JSON_OUT}/escapes_tables.c -o ${JSON_OUT}/escapes_tables.o)
set_tests_properties(json-escapes-c-compiles PROPERTIES FIXTURES_REQUIRED escapes_c)
