# libFuzzer targets (PMU_FUZZ=ON, clang): each runs as a ctest over its seed
# corpus plus a bounded number of mutations; new inputs go to the build tree.
if(PMU_FUZZ)
  set(FUZZ_RUNS 20000 CACHE STRING "mutations per fuzz target in ctest")
  function(pmu_fuzz_target name source)
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE pmumodel)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/${name}-corpus)
    file(MAKE_DIRECTORY ${work})
    add_test(NAME fuzz/${name}
      COMMAND ${name} -runs=${FUZZ_RUNS} -max_len=65536 -timeout=10 ${work} ${ARGN})
  endfunction()
  pmu_fuzz_target(fuzz_yaml ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_yaml.c
    ${CMAKE_SOURCE_DIR}/pmus ${CMAKE_CURRENT_LIST_DIR}/checks)
endif()
