# perf.data: libpmurt's reader and writer against each other and against
# Debian's perf (linux-perf 6.1) both ways; pmutool report and script.
add_executable(pd_copy ${CMAKE_CURRENT_LIST_DIR}/perfdata/pd_copy.c)
target_link_libraries(pd_copy PRIVATE pmurt_internal)
