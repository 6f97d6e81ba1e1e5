# The four description sources of libpmurt (built-in tables, DTB, device-tree
# directory, YAML) load into the same model and answer group checks alike;
# broken directories fail naming the path.  tests/sources/sources_test.c reads
# libpmurt's internals (runtime/internal.h), so it links the static library.
set(SOURCES_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/sources)
add_executable(sources_test ${SOURCES_TESTS}/sources_test.c ${SOURCES_TESTS}/dtdir.c)
target_include_directories(sources_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${SOURCES_TESTS} ${CMAKE_SOURCE_DIR}/runtime
  ${CMAKE_SOURCE_DIR}/model ${CMAKE_SOURCE_DIR}/tables ${CMAKE_SOURCE_DIR}/validate)
target_link_libraries(sources_test PRIVATE pmurt_internal PkgConfig::YAML PkgConfig::FDT)

# A scratch directory per run (ctest may run tests in parallel), removed on exit.
add_test(NAME sources/same-model
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-sources.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/power10.dtb\" \"$3\" &&
                 \"$2\" \"$t\" \"$t/power10.dtb\" \"$3\"" sh
    ${PMUGEN} $<TARGET_FILE:sources_test> ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
foreach(pmu power9 power8)
  add_test(NAME sources/same-model-${pmu}
    COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-sources.XXXXXX\") || exit 1
                   trap 'rm -rf \"$t\"' EXIT
                   \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/$4.dtb\" \"$3\" &&
                   \"$2\" \"$t\" \"$t/$4.dtb\" \"$3\" $4" sh
      ${PMUGEN} $<TARGET_FILE:sources_test> ${CMAKE_SOURCE_DIR}/pmus/${pmu}.yaml ${pmu})
endforeach()
