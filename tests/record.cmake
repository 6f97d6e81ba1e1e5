# Recording (perf/ring.c, record.c, synth.c, cpc.c; tools/record/cmd_record.c):
# the ring reader and the session against a kernel in memory
# (tests/record/mem_kernel.c), synthesis from a /proc tree the test builds,
# the cpc provider's rules over the built-in POWER10 description.
add_library(record_mem_kernel STATIC ${CMAKE_CURRENT_LIST_DIR}/record/mem_kernel.c)
target_include_directories(record_mem_kernel PUBLIC ${CMAKE_CURRENT_LIST_DIR}/record
  ${CMAKE_SOURCE_DIR}/perf ${CMAKE_SOURCE_DIR}/include)

foreach(t ring synth cpc)
  add_executable(record_${t}_test ${CMAKE_CURRENT_LIST_DIR}/record/${t}_test.c)
  target_include_directories(record_${t}_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_link_libraries(record_${t}_test PRIVATE record_mem_kernel pmurt_internal)
  add_test(NAME record/${t} COMMAND record_${t}_test)
endforeach()

# On this machine's kernel, as root: cpu-clock on a workload (samples of its
# pid, COMM/MMAP2/FORK/EXIT, callchains) and the tracepoint sched:sched_switch.
add_executable(record_spin ${CMAKE_SOURCE_DIR}/bench/spin.c)
# record/stress-real's workload: call chains of every depth
add_executable(record_ladder_spin ${CMAKE_CURRENT_LIST_DIR}/record/ladder_spin.c)
# the call-graph comparison's workload: PLT entries and the vdso on its path.
# -fno-plt: no .plt of its own, where _init (size 0, its end fixed up to the
# next symbol) and an entry overlap and perf's answer depends on the shape of
# its symbol tree (gcc and clang builds differ); libc's own PLT stays on the path
add_executable(record_plt_spin ${CMAKE_CURRENT_LIST_DIR}/record/plt_spin.c)
target_compile_options(record_plt_spin PRIVATE -fno-plt)
foreach(spin record_spin record_plt_spin record_ladder_spin)
  target_compile_options(${spin} PRIVATE -fno-omit-frame-pointer) # -g walks its frames
  # plain C without the sanitizer runtime, whose C++ symbols perf demangles and
  # pmutool script does not (as tests/perfdata.cmake builds pd_spin)
  foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(opts ${spin} ${prop})
    if(opts)
      list(FILTER opts EXCLUDE REGEX "sanitize")
      set_target_properties(${spin} PROPERTIES ${prop} "${opts}")
    endif()
  endforeach()
endforeach()
add_executable(record_live_test ${CMAKE_CURRENT_LIST_DIR}/record/live_test.c)
target_include_directories(record_live_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(record_live_test PRIVATE pmurt_internal)
add_test(NAME record/live COMMAND record_live_test $<TARGET_FILE:record_spin>)

# POWER10 core events recorded through the simulated kernel on the fake
# POWER10 LPAR sysfs tree (tests/fakesys/power10-lpar.sh).
add_executable(record_sim_test ${CMAKE_CURRENT_LIST_DIR}/record/sim_test.c)
target_include_directories(record_sim_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(record_sim_test PRIVATE pmurt_internal pmusim)
add_test(NAME record/sim
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-record.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$2\" \"$t/sys\" && \"$1\" \"$t/sys\"" sh
    $<TARGET_FILE:record_sim_test> ${CMAKE_CURRENT_LIST_DIR}/fakesys/power10-lpar.sh)

# pmutool record on this machine's kernel, its files read by Debian's perf
# and by pmutool report/script (tests/record/record_tool.sh says what each
# case checks).  The CPU-wide and task cases run alone: they sample
# everything that runs.
foreach(case workload callchain pid sigint period fcfs status papi single ours tracepoint cxx longnames tracegraph deep sortkeys)
  add_test(NAME record/tool-${case}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/record/record_tool.sh ${case}
      $<TARGET_FILE:pmutool> $<TARGET_FILE:record_spin> ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
      $<TARGET_FILE:record_plt_spin>)
endforeach()
set_tests_properties(record/tool-sigint record/tool-tracepoint record/tool-sortkeys PROPERTIES RUN_SERIAL TRUE)

# pmutool report's period on fixed-period (-c) files, against perf report:
# perf record's (no PERIOD in sample_type) and pmutool record's
add_test(NAME record/report-period
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/record/report_period.sh $<TARGET_FILE:pmutool>
    $<TARGET_FILE:record_spin>)

# Many recordings through one- and two-page rings on the simulated kernel,
# each file read back whole (tests/record/stress_test.c)
add_executable(record_stress_test ${CMAKE_CURRENT_LIST_DIR}/record/stress_test.c)
target_include_directories(record_stress_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(record_stress_test PRIVATE pmurt_internal pmusim)
add_test(NAME record/stress-sim
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-stress.XXXXXX\") || exit 1
    trap 'rm -rf \"$t\"' EXIT
    sh \"$1\" \"$t/sys\" >/dev/null && \"$2\" \"$t/sys\" \"$t\"" sh
    ${CMAKE_CURRENT_LIST_DIR}/fakesys/power10-lpar.sh $<TARGET_FILE:record_stress_test>)

# The same on this machine's kernel, each file read by pmutool and perf
# (tests/record/stress_real.sh)
add_test(NAME record/stress-real
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/record/stress_real.sh $<TARGET_FILE:pmutool>
    $<TARGET_FILE:record_ladder_spin>)
