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
