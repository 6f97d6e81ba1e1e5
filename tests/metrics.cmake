# perf's metrics (tests/metrics/metrics_test.c): look-up and groups without
# case, exact and double evaluation against hand-computed values, and
# pmurt_pack on a toy PMU's YAML and all-events DTB (tests/metrics/toy.yaml;
# three metrics sharing an event: bound 3, not the 2 of the distinct events),
# on POWER10's CPI and POWER9's cpi_breakdown groups, on every core metric and
# on all core metric groups (POWER10's nine in 36 groups at most, issue 18's
# goal).  Loader errors are a golden case in tests/checks (bad-metric); perf's
# JSON round trip is tests/json (json-roundtrip-*).
set(METRIC_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/metrics)
set(METRIC_TOY_DTB ${CMAKE_CURRENT_BINARY_DIR}/metrics-toy.dtb)
add_executable(metrics_test ${METRIC_TESTS}/metrics_test.c)
target_include_directories(metrics_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(metrics_test PRIVATE pmurt_internal m)
add_test(NAME metrics/dtb COMMAND ${PMUGEN} -q --all-events -f dtb -o ${METRIC_TOY_DTB}
  ${METRIC_TESTS}/toy.yaml)
set_tests_properties(metrics/dtb PROPERTIES FIXTURES_SETUP metric_dtb)
add_test(NAME metrics/api COMMAND metrics_test ${METRIC_TESTS}/toy.yaml ${METRIC_TOY_DTB})
set_tests_properties(metrics/api PROPERTIES FIXTURES_REQUIRED metric_dtb)
# pmutool: stat -M --dry-run, list metrics, describe METRIC on a fake
# POWER10 LPAR sysfs tree (tests/fakesys), and stat -M counting on the
# simulated kernel (stat_sim below).
# stat -M counting on the simulated kernel (tests/metrics/stat_sim.c:
# pmutool's sources with a test main, as tests/dtl's pmutool_sim).
get_target_property(STAT_SIM_SOURCES pmutool SOURCES)
get_target_property(STAT_SIM_DIR pmutool SOURCE_DIR)
list(REMOVE_ITEM STAT_SIM_SOURCES main.c)
list(TRANSFORM STAT_SIM_SOURCES PREPEND ${STAT_SIM_DIR}/)
get_target_property(STAT_SIM_LIBS pmutool LINK_LIBRARIES)
add_executable(stat_sim ${STAT_SIM_SOURCES} ${METRIC_TESTS}/stat_sim.c)
target_link_libraries(stat_sim PRIVATE ${STAT_SIM_LIBS} pmusim)
target_include_directories(stat_sim PRIVATE ${STAT_SIM_DIR}
  $<TARGET_PROPERTY:pmutool,INCLUDE_DIRECTORIES>)
target_compile_definitions(stat_sim PRIVATE $<TARGET_PROPERTY:pmutool,COMPILE_DEFINITIONS>)
add_test(NAME metrics/pmutool COMMAND sh ${METRIC_TESTS}/pmutool_metrics.sh
  $<TARGET_FILE:pmutool> $<TARGET_FILE:stat_sim> ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh
  ${PMU_SYSTEM_PYTHON3})
# bench_mux runs whole (simulated kernel, both PMUs; under the sanitizers in
# .ci/run's second build): every core metric group of POWER10 (9) and POWER9
# (16) measured on both sides.  Its figures are the bench's to print.
add_test(NAME metrics/bench-mux-runs
  COMMAND sh -c "\"$1\" >\"\${TMPDIR:-/tmp}/bench_mux.$$\" && n=$(grep -Ec '^  [A-Za-z_0-9]+ +[0-9]+ +\\|' \"\${TMPDIR:-/tmp}/bench_mux.$$\"); rm -f \"\${TMPDIR:-/tmp}/bench_mux.$$\"; [ \"$n\" = 25 ] || { echo \"FAIL: $n metric groups measured, want 25\" >&2; exit 1; }" sh
    $<TARGET_FILE:bench_mux>)
