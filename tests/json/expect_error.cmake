# Runs `pmugen import-perf-json DIR` and passes when it fails with a message
# matching EXPECT (a regular expression).
#   cmake -DPMUGEN=... -DDIR=... -DEXPECT=... -P expect_error.cmake
execute_process(COMMAND ${PMUGEN} import-perf-json ${DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "pmugen import-perf-json ${DIR} succeeded; expected an error")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "message does not match '${EXPECT}':\n${err}")
endif()
message(STATUS "failed as expected: ${err}")
