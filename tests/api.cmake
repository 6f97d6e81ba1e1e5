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

# The public event list (tests/api/evlist_test.c): strings parsed once on
# a fake POWER10 LPAR's sysfs, every event's information, a failed add,
# derived presets, a pack's groups, the period and the group check between
# parsing and opening, and counters opened again and again from one list
# (software events of this machine's kernel).
add_executable(evlist_test ${CMAKE_CURRENT_LIST_DIR}/api/evlist_test.c)
target_include_directories(evlist_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(evlist_test PRIVATE pmurt)
add_test(NAME api/evlist
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-evlist.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$2\" \"$t/sys\" >/dev/null && \"$1\" \"$t/sys\"" sh
    $<TARGET_FILE:evlist_test> ${CMAKE_CURRENT_LIST_DIR}/fakesys/power10-lpar.sh)

# The public recording API and what pmutool's record, dtl record and
# describe take from pmurt_tool.h (tests/api/record_test.c): the cpc rules,
# a recording's refusals and the host's PMUs on a fake POWER10 LPAR's
# sysfs, an event decoded, and a held command recorded with a software
# event on this machine's kernel, its file read back.
add_executable(record_api_test ${CMAKE_CURRENT_LIST_DIR}/api/record_test.c)
target_include_directories(record_api_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(record_api_test PRIVATE pmurt)
add_test(NAME api/record
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-record.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sh \"$2\" \"$t/sys\" >/dev/null && \"$1\" \"$t/sys\" \"$t\"" sh
    $<TARGET_FILE:record_api_test> ${CMAKE_CURRENT_LIST_DIR}/fakesys/power10-lpar.sh)

# pmurt_tool.h's build ids and build-id cache, and pmurt.h's perf.data from
# memory (tests/api/buildid_test.c), through libpmurt.so's exported symbols:
# a recording's build ids against perf 6.1's buildid-list of it, the test
# program's own against binutils' readelf, a kernel, caches and perf
# configs laid out in a scratch directory.
add_executable(api_buildid_test ${CMAKE_CURRENT_LIST_DIR}/api/buildid_test.c)
target_include_directories(api_buildid_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(api_buildid_test PRIVATE pmurt)
target_link_options(api_buildid_test PRIVATE -Wl,--build-id=sha1)
add_test(NAME api/buildid
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-buildid.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 id=$(\"$2\" -n \"$1\" | sed -n 's/.*Build ID: *//p')
                 test -n \"$id\" || { echo \"no build id in $1 (readelf: binutils)\" >&2; exit 1; }
                 \"$1\" \"$t\" \"$3\" \"$id\"" sh
    $<TARGET_FILE:api_buildid_test> ${CMAKE_READELF}
    ${CMAKE_CURRENT_LIST_DIR}/perfdata/corpus/pmutool-group.data)
