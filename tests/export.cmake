# The exporters (export/): the pprof writer read back through zlib and
# libprotobuf-c, the OpenMetrics writer's exact text and refusals; what
# pmutool writes with them is checked by the engines' own readers
# (tests/export/*.sh, *.py).
add_executable(export_pprof_test ${CMAKE_CURRENT_LIST_DIR}/export/pprof_test.c)
target_include_directories(export_pprof_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(export_pprof_test PRIVATE pmuexport)
add_test(NAME export/pprof-writer COMMAND export_pprof_test)
add_executable(export_openmetrics_test ${CMAKE_CURRENT_LIST_DIR}/export/openmetrics_test.c)
target_include_directories(export_openmetrics_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(export_openmetrics_test PRIVATE pmuexport)
add_test(NAME export/openmetrics-writer COMMAND export_openmetrics_test)

# Go's pprof tool from Debian's packages (tests/export/build_pprof.sh), a
# fixture of the tests that read profiles with it.
set(EXPORT_OUT ${CMAKE_CURRENT_BINARY_DIR}/export)
file(MAKE_DIRECTORY ${EXPORT_OUT})
set(PMU_PPROF_TOOL ${EXPORT_OUT}/pprof)
add_test(NAME export/build-pprof-tool
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/export/build_pprof.sh ${EXPORT_OUT})
set_tests_properties(export/build-pprof-tool PROPERTIES FIXTURES_SETUP pprof_tool)
add_test(NAME export/report-pprof
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/export/pprof.sh ${CMAKE_BINARY_DIR}/bin ${PMU_PPROF_TOOL}
    ${PMU_PPROF_PROTO} ${CMAKE_CURRENT_LIST_DIR}/perfdata/corpus)
set_tests_properties(export/report-pprof PROPERTIES FIXTURES_REQUIRED pprof_tool
  ENVIRONMENT XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/perfdata-cache)

# OpenMetrics: stat, stat -I, stat -M (the simulated kernel's stat_sim, made
# in tests/metrics.cmake), dtl report; the strict parser, promtool's import,
# Prometheus on loopback; dtl report --pprof through Go's pprof.
add_test(NAME export/openmetrics
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/export/openmetrics.sh ${CMAKE_BINARY_DIR}/bin
    $<TARGET_FILE:stat_sim> ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh
    ${PMU_SYSTEM_PYTHON3} ${PMU_PPROF_TOOL}
    ${CMAKE_CURRENT_LIST_DIR}/fuzz/dtl-perfdata-corpus/recorded-aux.data)
set_tests_properties(export/openmetrics PROPERTIES FIXTURES_REQUIRED pprof_tool)

# report --pprof's source files and lines (DWARF), a program built by the test
add_test(NAME export/report-pprof-lines
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/export/pprof_lines.sh ${CMAKE_BINARY_DIR}/bin ${PMU_PPROF_TOOL})
set_tests_properties(export/report-pprof-lines PROPERTIES FIXTURES_REQUIRED pprof_tool)
