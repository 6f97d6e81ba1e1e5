# perf.data: libpmurt's reader and writer against each other and against
# Debian's perf (linux-perf 6.1) both ways; pmutool report and script.
add_executable(pd_copy ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_copy.c)
target_link_libraries(pd_copy PRIVATE pmurt_internal)
add_executable(pd_synth ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_synth.c)
target_link_libraries(pd_synth PRIVATE pmurt_internal)
# the workloads whose samples must resolve as perf resolves them: plain C,
# without the sanitizer runtime (C++, which perf demangles) of that build;
# pd_unwind, of --call-graph dwarf, without frame pointers or debug
# information either (its CFI in .eh_frame only)
add_executable(pd_spin ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_spin.c)
add_executable(pd_unwind ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_unwind.c)
foreach(workload pd_spin pd_unwind)
  foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(opts ${workload} ${prop})
    if(opts)
      list(FILTER opts EXCLUDE REGEX "sanitize")
      set_target_properties(${workload} PROPERTIES ${prop} "${opts}")
    endif()
  endforeach()
endforeach()
target_compile_options(pd_unwind PRIVATE -O2 -fomit-frame-pointer -g0)
# the kernel-symbol cache in the build tree, not in the user's home
foreach(mode synth jit plt plt-sweep plt-record chains bounds read read-record buildid-hits record-g record-a record-z
    record-pipe record-dwarf record-dwarf-ours header kcache)
  add_test(NAME perfdata/interop-${mode}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/perfdata/interop.sh ${mode} ${CMAKE_BINARY_DIR}/bin)
  set_tests_properties(perfdata/interop-${mode} PROPERTIES RUN_SERIAL TRUE
    ENVIRONMENT XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/perfdata-cache)
endforeach()
# report's model of perf's symbol tree (tools/report/rbtree.c, perf_symtree.c)
add_executable(pd_symtree_test ${CMAKE_CURRENT_LIST_DIR}/perfdata/symtree_test.c
  ${CMAKE_SOURCE_DIR}/tools/report/perf_symtree.c ${CMAKE_SOURCE_DIR}/tools/report/rbtree.c)
target_include_directories(pd_symtree_test PRIVATE ${CMAKE_SOURCE_DIR}/tools/report
  ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME perfdata/symtree COMMAND pd_symtree_test)
add_executable(pd_reader_test ${CMAKE_CURRENT_LIST_DIR}/perfdata/reader_test.c)
target_link_libraries(pd_reader_test PRIVATE pmurt_internal)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/perfdata-scratch)
# perf-record-z-*.data: perf 6.1's `perf record -z -e cpu-clock -c 100000 -- true`
# and `perf record -z -g -m 1 -e cpu-clock -c 50000 -- longname_spin 100000`
# (tests/record/longname_spin.cc; 120 compressed records, records split over two)
add_test(NAME perfdata/reader COMMAND pd_reader_test ${CMAKE_CURRENT_BINARY_DIR}/perfdata-scratch
  ${CMAKE_CURRENT_LIST_DIR}/perfdata/corpus/perf-record-z-true.data
  ${CMAKE_CURRENT_LIST_DIR}/perfdata/corpus/perf-record-z-g.data)
# seeds: our writer's and perf's files (perf-pipe-spin.data: perf 6.1's pipe
# format, `perf record -e cpu-clock -c 1000000 -o - -- pd_spin 0.003`); pmutool-group.data is `pmutool record -e
# '{cpu-clock,task-clock}' -c 100000 -- pd_spin 0.02` (every feature perf writes,
# build ids of the workload, ld.so and the kernel); perf-record-S-true.data is
# perf 6.1's `perf record -e '{cpu-clock,page-faults}:S' -c 100000 -- true` and
# synth-read.data `pd_synth OUT --read` (leader sampling: PERF_SAMPLE_READ
# group reads, read_format ID|GROUP|LOST, and with both times);
# perf-record-dwarf-gzip.data is perf 6.1's `perf record --call-graph dwarf,1024 -e cpu-clock -c 5000000 --
# sh -c 'gzip -1 -c /usr/lib/x86_64-linux-gnu/libc.so.6 >/dev/null'` (user
# registers and stacks, unwound by fuzz_report through Debian 12's files)
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
    LINK pmurt_static pmuexport PkgConfig::JANSSON ${CMAKE_DL_LIBS} ${PMUTOOL_LIBIBERTY_A}
    SOURCES ${CMAKE_SOURCE_DIR}/tools/report/cmd_report.c ${CMAKE_SOURCE_DIR}/tools/report/tool_session.c
            ${CMAKE_SOURCE_DIR}/tools/report/tool_symbols.c ${CMAKE_SOURCE_DIR}/tools/tool_util.c
            ${CMAKE_SOURCE_DIR}/tools/report/perf_symtree.c ${CMAKE_SOURCE_DIR}/tools/report/rbtree.c
            ${CMAKE_SOURCE_DIR}/tools/report/elf_lib.c ${CMAKE_SOURCE_DIR}/tools/report/report_graph.c
            ${CMAKE_SOURCE_DIR}/tools/report/report_filter.c ${CMAKE_SOURCE_DIR}/tools/report/report_group.c
            ${CMAKE_SOURCE_DIR}/tools/report/report_pprof.c ${CMAKE_SOURCE_DIR}/tools/report/source_lines.c
            ${CMAKE_SOURCE_DIR}/tools/report/tool_unwind.c)
  # report's code as pmutool builds it (tools/CMakeLists.txt pmutool_report):
  # the public headers and the library's public symbols only (libpmurt.a)
  target_include_directories(fuzz_report PRIVATE ${CMAKE_SOURCE_DIR}/tools)
  # elfutils' sonames (tools/CMakeLists.txt), for elf_lib.c's dlopen
  target_compile_definitions(fuzz_report PRIVATE $<TARGET_PROPERTY:pmutool,COMPILE_DEFINITIONS>)
endif()
add_executable(pd_buildid_test ${CMAKE_CURRENT_LIST_DIR}/perfdata/buildid_test.c)
target_link_libraries(pd_buildid_test PRIVATE pmurt_internal)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/perfdata-buildid)
add_test(NAME perfdata/buildid COMMAND pd_buildid_test ${CMAKE_CURRENT_BINARY_DIR}/perfdata-buildid
  ${CMAKE_SOURCE_DIR}/tests/data/perfdata/buildid-in-order.txt)
# compare.py graph (interop-record-g's, record/tool-deep's check against
# perf report) refuses branches or rows in another order, a frame under
# another parent; lets through only equal branches of different files
add_test(NAME perfdata/compare-graph
  COMMAND ${PMU_SYSTEM_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/perfdata/compare_graph_test.py)
# report's and script's filters (--comms --pid --tid --dsos --symbols --cpu
# --time --max-stack), -g graph,P,ORDER, -s and --stdio against perf 6.1
add_test(NAME perfdata/filters
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/perfdata/filters.sh ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(perfdata/filters PROPERTIES RUN_SERIAL TRUE
  ENVIRONMENT XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/perfdata-cache)
# report's group view (--group, --no-group, a grouped file's default)
add_test(NAME perfdata/group
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/perfdata/group.sh ${CMAKE_BINARY_DIR}/bin)
set_tests_properties(perfdata/group PROPERTIES RUN_SERIAL TRUE
  ENVIRONMENT XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/perfdata-cache)
