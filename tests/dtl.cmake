# vpa_dtl (dtl/, tools/dtl/cmd_dtl.c): tests/dtl/dtl_test.c checks the decoder
# against payloads built from the documented layout and the generator's
# streams, and writes the inputs the pmutool tests decode; check_report.py
# recomputes `dtl report --json` from the raw bytes; html_test.sh renders the
# --html page in headless Chromium (Debian package chromium); check_perfdata.py
# the perf.data side (dtl dump, dtl report -i).
set(DTL_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/dtl)
set(DTL_OUT ${CMAKE_CURRENT_BINARY_DIR}/dtl)
file(MAKE_DIRECTORY ${DTL_OUT})
add_executable(dtl_test ${DTL_TESTS}/dtl_test.c)
target_include_directories(dtl_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dtl_test PRIVATE pmurt_internal pmusim)
set(DTL_TEST $<TARGET_FILE:dtl_test>)
set(PMUTOOL $<TARGET_FILE:pmutool>)

add_test(NAME dtl/decoder COMMAND dtl_test)

add_test(NAME dtl/make-inputs COMMAND sh -c
  "\"$0\" sample \"$1/sample.bin\" && \"$0\" gen \"$1/gen.bin\" 20000 &&
   \"$0\" gen \"$1/gen-aux.bin\" 5000 4096" ${DTL_TEST} ${DTL_OUT})
set_tests_properties(dtl/make-inputs PROPERTIES FIXTURES_SETUP dtl_inputs)

# decode: exact text and JSON of the documented sample (golden/), and the
# truncated-end error naming the offset
foreach(form text json)
  set(flag "")
  if(form STREQUAL "json")
    set(flag --json)
  endif()
  add_test(NAME dtl/decode-${form} COMMAND sh -c
    "\"$0\" dtl decode $3 \"$1/sample.bin\" > \"$1/decode-$4.out\" && diff -u \"$2/golden/decode-$4.out\" \"$1/decode-$4.out\""
    ${PMUTOOL} ${DTL_OUT} ${DTL_TESTS} "${flag}" ${form})
endforeach()
add_test(NAME dtl/decode-truncated COMMAND sh ${DTL_TESTS}/truncated.sh ${PMUTOOL} ${DTL_OUT})
set_tests_properties(dtl/decode-text dtl/decode-json dtl/decode-truncated PROPERTIES
  FIXTURES_REQUIRED dtl_inputs)

# report: every figure recomputed from the raw bytes in Python
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME dtl/report-json COMMAND ${Python3_EXECUTABLE} ${DTL_TESTS}/check_report.py
  ${PMUTOOL} ${DTL_OUT}/gen.bin ${DTL_OUT}/sample.bin ${DTL_OUT}/gen-aux.bin:4096
  random:1:4000 random:2:8000 random:3:300)
add_test(NAME dtl/report-html COMMAND sh ${DTL_TESTS}/html_test.sh ${PMUTOOL} ${DTL_OUT}
  ${Python3_EXECUTABLE} ${DTL_TESTS}/check_html.py gen.bin)
# sample.bin's implausible values: the page's warning line and wide histograms
add_test(NAME dtl/report-html-warnings COMMAND sh ${DTL_TESTS}/html_test.sh ${PMUTOOL}
  ${DTL_OUT} ${Python3_EXECUTABLE} ${DTL_TESTS}/check_html.py sample.bin)
set_tests_properties(dtl/report-json dtl/report-html dtl/report-html-warnings PROPERTIES
  FIXTURES_REQUIRED dtl_inputs)

# report on what is not DTL (refused, nothing printed) and on implausible
# values (warnings naming CPU, offset and kind; in --json too)
add_test(NAME dtl/report-validate COMMAND ${Python3_EXECUTABLE} ${DTL_TESTS}/check_validate.py
  ${PMUTOOL})

# perf.data: dtl dump against Debian's perf 6.1 (linux-perf) and the
# documented format, dtl report -i per CPU (tests/dtl/check_perfdata.py)
find_program(PERF_TOOL perf)
if(NOT PERF_TOOL)
  set(PERF_TOOL perf-is-missing-install-linux-perf)
endif()
add_test(NAME dtl/perfdata COMMAND ${Python3_EXECUTABLE} ${DTL_TESTS}/check_perfdata.py
  ${PMUTOOL} ${PERF_TOOL} ${DTL_OUT})

# capture: every entry the simulated vpa_dtl driver (tests/support/sim_dtl.c) wrote
# is delivered in the recorded file or counted lost, across seeds, wraps,
# bursts and slow readers (tests/dtl/capture_test.c)
add_executable(dtl_capture_test ${DTL_TESTS}/capture_test.c)
target_include_directories(dtl_capture_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dtl_capture_test PRIVATE pmurt_internal pmusim)
add_test(NAME dtl/capture
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-dtl.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$2\" \"$t/sys\" && \"$1\" \"$t/sys\" \"$t\"" sh
    $<TARGET_FILE:dtl_capture_test> ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh)

# pmutool dtl record end to end on the fake LPAR sysfs with the simulated
# kernel (pmutool_sim: pmutool's sources with a test main, never installed;
# tests/dtl/pmutool_sim.c), Debian's perf 6.1 on its files, the refusals,
# this machine's real sysfs (tests/dtl/check_record.py)
get_target_property(PMUTOOL_SIM_SOURCES pmutool SOURCES)
get_target_property(PMUTOOL_SIM_DIR pmutool SOURCE_DIR)
list(REMOVE_ITEM PMUTOOL_SIM_SOURCES main.c)
list(TRANSFORM PMUTOOL_SIM_SOURCES PREPEND ${PMUTOOL_SIM_DIR}/)
get_target_property(PMUTOOL_SIM_LIBS pmutool LINK_LIBRARIES)
add_executable(pmutool_sim ${PMUTOOL_SIM_SOURCES} ${DTL_TESTS}/pmutool_sim.c)
target_link_libraries(pmutool_sim PRIVATE ${PMUTOOL_SIM_LIBS} pmusim)
target_include_directories(pmutool_sim PRIVATE ${PMUTOOL_SIM_DIR}
  $<TARGET_PROPERTY:pmutool,INCLUDE_DIRECTORIES>)
target_compile_definitions(pmutool_sim PRIVATE $<TARGET_PROPERTY:pmutool,COMPILE_DEFINITIONS>)
add_test(NAME dtl/record
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-dtlrec.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$0\" \"$1\" \"$2\" \"$3\" \"$4\" \"$5\" \"$t\""
    ${Python3_EXECUTABLE} ${DTL_TESTS}/check_record.py ${PMUTOOL} $<TARGET_FILE:pmutool_sim>
    ${PERF_TOOL} ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh)

# the simulated driver point by point against vpa-dtl.c (the wrap that loses
# a poll, 84 of 85, the rounddown wake-up, the zero stale tail), the
# refusals in the driver's and the core's order, explained, and its crashes
# (tests/dtl/driver_test.c); and its outputs against a model of the driver
# written separately in Python (tests/dtl/check_driver_model.py)
add_executable(dtl_driver_test ${DTL_TESTS}/driver_test.c)
target_include_directories(dtl_driver_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dtl_driver_test PRIVATE pmurt_internal pmusim)
add_test(NAME dtl/driver
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-dtldrv.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$2\" \"$t/sys\" && \"$1\" \"$t/sys\"" sh
    $<TARGET_FILE:dtl_driver_test> ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh)
add_test(NAME dtl/driver-model COMMAND ${Python3_EXECUTABLE} ${DTL_TESTS}/check_driver_model.py
  $<TARGET_FILE:dtl_driver_test>)

# the capture's defaults (1 ms poll, 1 MiB AUX area) keep what the driver
# loses under 0.1% at 10,000 dispatches a second per CPU, in simulated time
# (bench/bench_dtl_loss.c --defaults)
add_test(NAME dtl/loss-defaults COMMAND $<TARGET_FILE:bench_dtl_loss> --defaults)

# the AUX drain's records field by field on a CPU that is not its mmap
# index, its AUXTRACE_ERROR's CPU, torn bytes (tests/dtl/aux_records_test.c)
add_executable(dtl_aux_records_test ${DTL_TESTS}/aux_records_test.c)
target_include_directories(dtl_aux_records_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dtl_aux_records_test PRIVATE pmurt_internal pmusim)
add_test(NAME dtl/aux-records
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-dtlaux.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$2\" \"$t/sys\" && \"$1\" \"$t/sys\"" sh
    $<TARGET_FILE:dtl_aux_records_test> ${CMAKE_CURRENT_SOURCE_DIR}/fakesys/power10-lpar.sh)
