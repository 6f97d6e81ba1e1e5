# The public API's growth and reuse rules (tests/api/api_test.c): event
# arrays at the caller's element size, errors cleared on entry, *pmu NULL on
# failure, truncated messages (over the built-in tables and a DTB pmugen
# writes); any-counter events kept off fixed counters (api/no-count.yaml).
add_executable(api_test ${CMAKE_CURRENT_LIST_DIR}/api/api_test.c)
target_include_directories(api_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(api_test PRIVATE pmurt)
add_test(NAME api/contract
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-api.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/power10.dtb\" \"$3\" &&
                 \"$2\" \"$t/power10.dtb\" \"$4\"" sh
    ${PMUGEN} $<TARGET_FILE:api_test> ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
    ${CMAKE_CURRENT_LIST_DIR}/api/no-count.yaml)
