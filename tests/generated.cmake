# Checked-in generated files must be current: dts/power10.dts is what pmugen
# writes today, byte for byte; and the output is deterministic (the one test
# of it: every format, the default event set and --all-events).
add_test(NAME generated/dts-power10-current
  COMMAND sh -c "\"$1\" -q -o - \"$2\" | cmp - \"$3\"" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml ${CMAKE_SOURCE_DIR}/dts/power10.dts)
add_test(NAME generated/dts-power9-current
  COMMAND sh -c "\"$1\" -q -o - \"$2\" | cmp - \"$3\"" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power9.yaml ${CMAKE_SOURCE_DIR}/dts/power9.dts)
add_test(NAME generated/dts-power8-current
  COMMAND sh -c "\"$1\" -q -o - \"$2\" | cmp - \"$3\"" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power8.yaml ${CMAKE_SOURCE_DIR}/dts/power8.dts)
add_test(NAME generated/deterministic
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/generated/deterministic.sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
# A failed run leaves no output file behind (the output would be partial).
add_test(NAME generated/no-partial-output
  COMMAND sh -c "rm -f \"$2\" && ! \"$1\" -q -o \"$2\" \"$3\" 2>/dev/null && test ! -e \"$2\" &&
                 test -z \"$(ls \"$(dirname \"$2\")\" | grep '\\.tmp')\"" sh
    ${PMUGEN} ${CMAKE_CURRENT_BINARY_DIR}/partial/out.dts ${CMAKE_CURRENT_SOURCE_DIR}/checks/uncovered-bits.yaml)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/partial)
