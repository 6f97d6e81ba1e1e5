# libFuzzer targets (PMU_FUZZ=ON, clang): each runs as a ctest over its seed
# corpus plus a bounded number of mutations; new inputs go to the build tree.
# pmu_fuzz_target(NAME SOURCE SEED-DIR... [LINK LIBRARY...] [SOURCES FILE...]):
# the target links pmumodel unless LINK names the libraries (pmurt_internal
# for libpmurt), and compiles SOURCES with it.
if(PMU_FUZZ)
  set(FUZZ_RUNS 20000 CACHE STRING "mutations per fuzz target in ctest")
  function(pmu_fuzz_target name source)
    cmake_parse_arguments(FUZZ "" "" "LINK;SOURCES" ${ARGN})
    if(NOT FUZZ_LINK)
      set(FUZZ_LINK pmumodel)
    endif()
    add_executable(${name} ${source} ${FUZZ_SOURCES})
    target_link_libraries(${name} PRIVATE ${FUZZ_LINK})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/${name}-corpus)
    file(MAKE_DIRECTORY ${work})
    add_test(NAME fuzz/${name}
      COMMAND ${name} -runs=${FUZZ_RUNS} -max_len=65536 -timeout=10 ${work}
              ${FUZZ_UNPARSED_ARGUMENTS})
  endfunction()
  pmu_fuzz_target(fuzz_yaml ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_yaml.c
    ${CMAKE_SOURCE_DIR}/pmus ${CMAKE_CURRENT_LIST_DIR}/checks)
  target_compile_definitions(fuzz_yaml PRIVATE FUZZ_YAML_DIR="${CMAKE_CURRENT_LIST_DIR}/checks")
  pmu_fuzz_target(fuzz_parse ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_parse.c
    ${CMAKE_CURRENT_LIST_DIR}/parse/corpus LINK pmurt_internal)
  pmu_fuzz_target(fuzz_import ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_import.c
    ${TESTDATA}/perf-json/power10 ${TESTDATA}/perf-json/power8 ${CMAKE_CURRENT_LIST_DIR}/json/data
    LINK pmumodel PkgConfig::JANSSON SOURCES ${CMAKE_SOURCE_DIR}/pmugen/import_perf_json.c)
  target_include_directories(fuzz_import PRIVATE ${CMAKE_SOURCE_DIR}/pmugen)
  pmu_fuzz_target(fuzz_batch ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_batch.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz/batch-corpus
    LINK pmurt_internal PkgConfig::JANSSON
    SOURCES ${CMAKE_SOURCE_DIR}/tools/describe/tool_batch.c ${CMAKE_SOURCE_DIR}/tools/describe/check_answer.c
            ${CMAKE_SOURCE_DIR}/tools/tool_util.c ${CMAKE_SOURCE_DIR}/tools/tool_generations.c)
  target_include_directories(fuzz_batch PRIVATE ${CMAKE_SOURCE_DIR}/tools)
  # the DTL decoder; its seeds are the documented sample and a generated
  # AUX stream with a wrap (tests/fuzz/dtl-corpus, from dtl_test)
  pmu_fuzz_target(fuzz_dtl ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_dtl.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz/dtl-corpus LINK pmurt_internal)
  # the AUX drain's arithmetic on any head and tail (perf/aux.c)
  pmu_fuzz_target(fuzz_aux ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_aux.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz/aux-corpus LINK pmurt_internal)
  # the perf.data side: AUXTRACE_INFO/AUXTRACE records, perf report -D;
  # recorded-aux.data (also a fuzz_perfdata seed) is a capture from the
  # simulated vpa_dtl driver, made by `dtl_capture_test SYSFS DIR SEED_OUT`
  pmu_fuzz_target(fuzz_dtl_perf ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_dtl_perf.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz/dtl-perfdata-corpus LINK pmurt_internal
    SOURCES ${CMAKE_SOURCE_DIR}/tools/dtl/dtl_perf.c)
  target_include_directories(fuzz_dtl_perf PRIVATE ${CMAKE_SOURCE_DIR}/tools)
  # libpfm.so.4's event strings (pfm/), over the library's own objects
  pmu_fuzz_target(fuzz_pfm_event ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_pfm_event.c
    ${CMAKE_CURRENT_LIST_DIR}/fuzz/pfm-corpus LINK pfm_internal)
endif()
