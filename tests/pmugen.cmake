# pmugen's command line (tests/pmugen/): several outputs in one run, each
# byte-identical to its one-format run and never partial; every option of
# pmugen and pmutool either has its effect or is refused (pmutool's
# refusals and effects on exact outputs are golden cases in
# tests/pmutool/golden/; the effect of --per-task, which POWER10's own
# alternatives cannot show, is checked here on an edited copy).
set(PMUGEN_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/pmugen)
set(PMUGEN_OUT ${CMAKE_CURRENT_BINARY_DIR}/pmugen-cli)
add_test(NAME pmugen/multi-output
  COMMAND sh ${PMUGEN_TESTS}/multi_output.sh ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
    ${CMAKE_CURRENT_SOURCE_DIR}/checks/uncovered-bits.yaml ${PMUGEN_OUT}/multi)
add_test(NAME pmugen/options
  COMMAND sh ${PMUGEN_TESTS}/options.sh ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
    ${PMUGEN_OUT}/options)
add_test(NAME pmugen/pmutool-per-task
  COMMAND sh ${PMUGEN_TESTS}/pmutool_per_task.sh $<TARGET_FILE:pmutool> ${CMAKE_SOURCE_DIR}
    ${PMUGEN_OUT}/per-task)
