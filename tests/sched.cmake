# runtime/sched.c called directly (tests/sched/sched_test.c): constraint
# words, adder constants, alternatives and the branch filter map against
# values worked out by hand from the Linux source.  It reads libpmurt's
# internals (runtime/internal.h), so it links the static library.
add_executable(sched_test ${CMAKE_CURRENT_SOURCE_DIR}/sched/sched_test.c)
target_include_directories(sched_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/runtime
  ${CMAKE_SOURCE_DIR}/model ${CMAKE_SOURCE_DIR}/tables ${CMAKE_SOURCE_DIR}/validate)
target_link_libraries(sched_test PRIVATE pmurt_internal PkgConfig::YAML PkgConfig::FDT)
add_test(NAME sched/kernel-words COMMAND sched_test)
