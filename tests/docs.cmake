# Documentation: tests/docs/man_test.sh renders each manual page built from
# its .in (groff and man warnings are failures), checks its version is the
# program's and that every option of the program's --help, and of each
# subcommand's, is described.
set(DOCS_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/docs)
add_test(NAME docs/man-pmutool
  COMMAND sh ${DOCS_TESTS}/man_test.sh ${PMU_MAN_DIR}/man1/pmutool.1 $<TARGET_FILE:pmutool>
    list describe check stat record report script dtl "dtl record" "dtl decode" "dtl dump"
    "dtl script" "dtl report")
add_test(NAME docs/man-pmugen
  COMMAND sh ${DOCS_TESTS}/man_test.sh ${PMU_MAN_DIR}/man1/pmugen.1 $<TARGET_FILE:pmugen>
    import-perf-json)
# the README's examples (its ```sh blocks, and any in doc/) run as written
# against this build: tests/docs/readme_test.sh; as on a freshly booted
# machine, with tracefs not mounted (tests/fresh_boot.sh)
file(GLOB docs_markdown RELATIVE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/doc/*.md)
add_test(NAME docs/readme-examples
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/fresh_boot.sh sh ${DOCS_TESTS}/readme_test.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR} README.md
    ${docs_markdown})
