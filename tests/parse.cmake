# Event-string parser (runtime/parse.c): a table-driven test over the
# built-in POWER10 description and a toy one, and its seed corpus (also the
# fuzz_parse seeds, see fuzz.cmake).
add_executable(parse_test ${CMAKE_CURRENT_LIST_DIR}/parse/parse_test.c)
target_link_libraries(parse_test PRIVATE pmurt_internal)
add_test(NAME parse/table
  COMMAND parse_test ${CMAKE_CURRENT_LIST_DIR}/parse/toy.yaml ${CMAKE_CURRENT_LIST_DIR}/parse/corpus)
