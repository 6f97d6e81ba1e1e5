# perf.data: libpmurt's reader and writer against each other and against
# Debian's perf (linux-perf 6.1) both ways; pmutool report and script.
add_executable(pd_copy ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_copy.c)
target_link_libraries(pd_copy PRIVATE pmurt_internal)
add_executable(pd_synth ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_synth.c)
target_link_libraries(pd_synth PRIVATE pmurt_internal)
# the workload whose samples must resolve as perf resolves them: plain C,
# without the sanitizer runtime (C++, which perf demangles) of that build
add_executable(pd_spin ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_spin.c)
foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
  get_target_property(opts pd_spin ${prop})
  if(opts)
    list(FILTER opts EXCLUDE REGEX "sanitize")
    set_target_properties(pd_spin PROPERTIES ${prop} "${opts}")
  endif()
endforeach()
# the kernel-symbol cache in the build tree, not in the user's home
foreach(mode synth jit plt record-g record-a header kcache)
  add_test(NAME perfdata/interop-${mode}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/perfdata/interop.sh ${mode} ${CMAKE_BINARY_DIR}/bin)
  set_tests_properties(perfdata/interop-${mode} PROPERTIES RUN_SERIAL TRUE
    ENVIRONMENT XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/perfdata-cache)
endforeach()
add_executable(pd_reader_test ${CMAKE_CURRENT_LIST_DIR}/perfdata/reader_test.c)
target_link_libraries(pd_reader_test PRIVATE pmurt_internal)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/perfdata-scratch)
add_test(NAME perfdata/reader COMMAND pd_reader_test ${CMAKE_CURRENT_BINARY_DIR}/perfdata-scratch)
# seeds: our writer's and perf's files; pmutool-group.data is `pmutool record -e
# '{cpu-clock,task-clock}' -c 100000 -- pd_spin 0.02` (every feature perf writes,
# build ids of the workload, ld.so and the kernel)
if(PMU_FUZZ)
  pmu_fuzz_target(fuzz_perfdata ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_perfdata.c
    ${CMAKE_CURRENT_LIST_DIR}/perfdata/corpus LINK pmurt_internal)
endif()
add_test(NAME perfdata/cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/perfdata/cli.sh ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(perfdata/cli PROPERTIES
  ENVIRONMENT XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/perfdata-cache)
if(PMU_FUZZ)
  pmu_fuzz_target(fuzz_report ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_report.c
    ${CMAKE_CURRENT_LIST_DIR}/perfdata/corpus
    LINK pmurt_internal pmuexport PkgConfig::JANSSON ${CMAKE_DL_LIBS} ${PMUTOOL_LIBIBERTY_A}
    SOURCES ${CMAKE_SOURCE_DIR}/tools/report/cmd_report.c ${CMAKE_SOURCE_DIR}/tools/report/tool_session.c
            ${CMAKE_SOURCE_DIR}/tools/report/report_pprof.c
            ${CMAKE_SOURCE_DIR}/tools/report/tool_symbols.c ${CMAKE_SOURCE_DIR}/tools/tool_util.c
            ${CMAKE_SOURCE_DIR}/tools/report/elf_lib.c ${CMAKE_SOURCE_DIR}/tools/report/report_graph.c)
  target_include_directories(fuzz_report PRIVATE ${CMAKE_SOURCE_DIR}/tools)
  # elfutils' sonames (tools/CMakeLists.txt), for elf_lib.c's dlopen
  target_compile_definitions(fuzz_report PRIVATE $<TARGET_PROPERTY:pmutool,COMPILE_DEFINITIONS>)
endif()
add_executable(pd_buildid_test ${CMAKE_CURRENT_LIST_DIR}/perfdata/buildid_test.c)
target_link_libraries(pd_buildid_test PRIVATE pmurt_internal)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/perfdata-buildid)
add_test(NAME perfdata/buildid COMMAND pd_buildid_test ${CMAKE_CURRENT_BINARY_DIR}/perfdata-buildid
  ${CMAKE_SOURCE_DIR}/tests/data/perfdata/buildid-in-order.txt)
