# Event-string parser (runtime/parse.c): a table-driven test over the
# built-in POWER10 description and a toy one, and its seed corpus (also the
# fuzz_parse seeds, see fuzz.cmake).
add_executable(parse_test ${CMAKE_CURRENT_LIST_DIR}/parse/parse_test.c)
target_link_libraries(parse_test PRIVATE pmurt_internal)
add_test(NAME parse/table
  COMMAND parse_test ${CMAKE_CURRENT_LIST_DIR}/parse/toy.yaml ${CMAKE_CURRENT_LIST_DIR}/parse/corpus)

# name_match_test: the name hash and the look-up's compare (name_lookup.h,
# private to the runtime) on names of 1 to 80 bytes against strncasecmp.
add_executable(name_match_test ${CMAKE_CURRENT_LIST_DIR}/parse/name_match_test.c)
target_include_directories(name_match_test PRIVATE ${CMAKE_SOURCE_DIR}/runtime ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(name_match_test PRIVATE pmurt_internal)
add_test(NAME parse/name-match COMMAND name_match_test)

# suggest_test: the runtime compiled once more with PMURT_COUNT_SUGGESTIONS,
# which counts nearest-name searches, to show that a miss without an error
# object searches for none; and every suggestion checked against an
# exhaustive edit-distance search.
set(SUGGEST_RUNTIME pmu.c events.c group.c sched.c tables_load.c devtree_load.c attr.c evgrammar.c generations.c
  parse.c)
list(TRANSFORM SUGGEST_RUNTIME PREPEND ${CMAKE_SOURCE_DIR}/runtime/)
add_executable(suggest_test ${CMAKE_CURRENT_LIST_DIR}/parse/suggest_test.c ${SUGGEST_RUNTIME})
target_compile_definitions(suggest_test PRIVATE PMURT_COUNT_SUGGESTIONS)
target_include_directories(suggest_test PRIVATE ${CMAKE_SOURCE_DIR}/include
  ${CMAKE_SOURCE_DIR}/runtime)
target_link_libraries(suggest_test PRIVATE pmumodel_obj pmutables_obj)
add_test(NAME parse/suggestions COMMAND suggest_test)
