# libpmurt's perf side: sysfs PMUs, event lists, the description pick,
# counting and errno explanations through the simulated kernel on a fake
# POWER10 LPAR sysfs tree (perf_test), and pmutool stat on this machine for
# real (software events, tracepoints, msr, an unprivileged user) and as dry
# runs on the fake tree (stat.sh).
set(PERF_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/perf)
set(FAKESYS ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh)
add_executable(perf_test ${PERF_TESTS}/perf_test.c ${CMAKE_CURRENT_SOURCE_DIR}/sources/dtdir.c)
target_include_directories(perf_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
  ${CMAKE_CURRENT_SOURCE_DIR}/sources ${CMAKE_SOURCE_DIR}/perf)
target_link_libraries(perf_test PRIVATE pmurt_internal pmusim PkgConfig::YAML PkgConfig::FDT)

add_test(NAME perf/library
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-perf.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$3\" \"$t/sys\" --test-pmu &&
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/power10.dtb\" \"$4\" &&
                 \"$1\" -q -f dtb -o \"$t/power9.dtb\" \"$5\" &&
                 \"$2\" \"$t/sys\" \"$t\" \"$t/power10.dtb\" \"$t/power9.dtb\"" sh
    ${PMUGEN} $<TARGET_FILE:perf_test> ${FAKESYS} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
    ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)

# The EACCES explanations as user 65534 (setpriv, util-linux): the real
# perf_event_paranoid level in the message.
add_test(NAME perf/library-unprivileged
  COMMAND sh -c "command -v setpriv >/dev/null || { echo 'setpriv missing: install util-linux'; exit 1; }
                 t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-perf.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 chmod 755 \"$t\" && sh \"$2\" \"$t/sys\" --test-pmu && chmod -R a+rX \"$t\" &&
                 cp \"$1\" \"$t/perf_test\" &&
                 setpriv --reuid=65534 --regid=65534 --clear-groups \"$t/perf_test\" --unprivileged \"$t/sys\"" sh
    $<TARGET_FILE:perf_test> ${FAKESYS})

foreach(case software exit-status group msr tracepoint repeat interval interval-end output-file pid json json-perf breakpoint cpus no-hardware perf-layout
    missing-event paranoid dry-run-power10 foreign-core tool-events aggr)
  add_test(NAME perf/stat-${case}
    COMMAND sh ${PERF_TESTS}/stat.sh ${case} $<TARGET_FILE:pmutool> ${FAKESYS})
endforeach()
# the tracepoint and aggr cases may mount tracefs; the CPU-wide cases count every CPU
set_tests_properties(perf/stat-tracepoint perf/stat-cpus perf/stat-aggr PROPERTIES RUN_SERIAL TRUE)
# a tracepoint on a machine where nothing mounted tracefs (issue 23 item 2)
add_test(NAME perf/stat-tracefs-mount
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fresh_boot.sh sh ${PERF_TESTS}/stat.sh tracefs-mount
    $<TARGET_FILE:pmutool> ${FAKESYS})

# libFuzzer over perf's event lists (PMU_FUZZ=ON; tests/fuzz.cmake defines
# pmu_fuzz_target) on the fake LPAR tree, seeded with tests/perf/evlist-corpus.
if(PMU_FUZZ)
  pmu_fuzz_target(fuzz_evlist ${PERF_TESTS}/fuzz_evlist.c ${PERF_TESTS}/evlist-corpus
    LINK pmurt_internal)
  target_include_directories(fuzz_evlist PRIVATE ${CMAKE_SOURCE_DIR}/perf)
  target_compile_definitions(fuzz_evlist PRIVATE FAKESYS_BUILDER="${FAKESYS}")
endif()

# stat's text, CSV and JSON for multiplexed and uncounted events, which
# software events on this machine never are.
add_executable(stat_print_test ${PERF_TESTS}/stat_print_test.c ${CMAKE_SOURCE_DIR}/tools/stat/stat_print.c
  ${CMAKE_SOURCE_DIR}/tools/stat/stat_shadow.c
  ${CMAKE_SOURCE_DIR}/tools/stat/stat_events.c ${CMAKE_SOURCE_DIR}/tools/stat/stat_metrics.c
  ${CMAKE_SOURCE_DIR}/tools/stat/stat_aggr.c ${CMAKE_SOURCE_DIR}/tools/tool_util.c)
target_include_directories(stat_print_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
  ${CMAKE_SOURCE_DIR}/tools ${CMAKE_SOURCE_DIR}/perf)
target_link_libraries(stat_print_test PRIVATE pmurt_internal PkgConfig::JANSSON PkgConfig::YAML
  PkgConfig::FDT m)
add_test(NAME perf/stat-output COMMAND stat_print_test)

# The simulated kernel's multiplexing as the kernel does it (struct
# pmu_sim_mux: list order, no group after a failure, the PMU's check of
# every event on it, rotation of the first group on every 4 ms, the mux
# timer, enabled and running times, phased counts) on hand-made cases.
add_executable(sim_mux_test ${PERF_TESTS}/sim_mux_test.c)
target_include_directories(sim_mux_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(sim_mux_test PRIVATE pmusim)
add_test(NAME perf/sim-mux COMMAND sim_mux_test)
