# Runs `pmugen import-perf-json DIR` and passes when it fails with a message
# matching EXPECT (a regular expression) and nothing on standard output (no
# partial YAML before the error).
#   cmake -DPMUGEN=... -DDIR=... -DEXPECT=... -P expect_error.cmake
execute_process(COMMAND ${PMUGEN} import-perf-json ${DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "pmugen import-perf-json ${DIR} succeeded; expected an error")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "message does not match '${EXPECT}':\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "standard output holds a partial result before the error:\n${out}")
endif()
message(STATUS "failed as expected: ${err}")
