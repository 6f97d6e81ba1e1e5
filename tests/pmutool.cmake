# pmutool: the command line over libpmurt (tools/).  Programs and data live in
# tests/pmutool/: vectors.c drives pmutool over kernel-derived expectations
# (p10_mmcr_sample.json, p10_selftests.json, kernel_cases.txt derived by hand
# from the kernel source); golden/ holds exact outputs of list, describe and
# check.  A DTB made by pmugen at test time (fixture pmutool_dtb) checks that
# --pmu with a DTB, the YAML and the built-in tables answer alike.
set(PMUTOOL_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/pmutool)
set(PMUTOOL_OUT ${CMAKE_CURRENT_BINARY_DIR}/pmutool)
set(PMUTOOL $<TARGET_FILE:pmutool>)
set(PMUTOOL_YAML ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
set(PMUTOOL_DTB ${PMUTOOL_OUT}/power10-all.dtb)
set(P10_VECTORS ${TESTDATA}/kernel/p10_mmcr_sample.json)
set(P10_SELFTESTS ${TESTDATA}/kernel/p10_selftests.json)
file(MAKE_DIRECTORY ${PMUTOOL_OUT})

add_executable(pmutool_vectors ${PMUTOOL_TESTS}/vectors.c ${PMUTOOL_TESTS}/mmcr_bits.c)
target_link_libraries(pmutool_vectors PRIVATE PkgConfig::JANSSON)
set(VECTORS $<TARGET_FILE:pmutool_vectors>)

# The DTB every --pmu test reads: all events, as pmugen writes it.
add_test(NAME pmutool/make-dtb
  COMMAND ${PMUGEN} -q --all-events -W no-kernel-limits -f dtb -o ${PMUTOOL_DTB} ${PMUTOOL_YAML})
set_tests_properties(pmutool/make-dtb PROPERTIES FIXTURES_SETUP pmutool_dtb)

# (1) every vector of p10_mmcr_sample.json through check --batch, from each
#     description source; and the three answer byte for byte alike.
if(EXISTS ${P10_VECTORS})
  add_test(NAME pmutool/mmcr-vectors COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS})
  add_test(NAME pmutool/mmcr-vectors-yaml
    COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS} --pmu ${PMUTOOL_YAML})
  add_test(NAME pmutool/mmcr-vectors-dtb
    COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS} --pmu ${PMUTOOL_DTB})
  add_test(NAME pmutool/sources-agree
    COMMAND sh ${PMUTOOL_TESTS}/sources_agree.sh ${PMUTOOL} ${VECTORS} ${P10_VECTORS}
            ${PMUTOOL_YAML} ${PMUTOOL_DTB} ${PMUTOOL_OUT})
  set_tests_properties(pmutool/mmcr-vectors-dtb pmutool/sources-agree PROPERTIES
    FIXTURES_REQUIRED pmutool_dtb)
else()
  message(STATUS "${P10_VECTORS} not found: pmutool/mmcr-vectors* not added")
endif()

# (2) p10_selftests.json by category; a category the library cannot answer
#     yet reports each case as SKIP with its reason (exit 77: ctest "Skipped").
if(EXISTS ${P10_SELFTESTS})
  foreach(cat raw branch generic pmi)
    add_test(NAME pmutool/selftests-${cat}
      COMMAND ${VECTORS} selftests ${PMUTOOL} ${P10_SELFTESTS} ${cat})
    set_tests_properties(pmutool/selftests-${cat} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
endif()

# (3) cases derived by hand from the kernel source (reasoning in the file).
add_test(NAME pmutool/kernel-cases
  COMMAND ${VECTORS} cases ${PMUTOOL} ${PMUTOOL_TESTS}/kernel_cases.txt)

# (4) exact outputs: one test per golden/NAME.cmd (exit status and arguments),
#     compared with golden/NAME.out (and NAME.err when present).
file(GLOB pmutool_golden ${PMUTOOL_TESTS}/golden/*.cmd)
list(SORT pmutool_golden)
foreach(cmd ${pmutool_golden})
  get_filename_component(name ${cmd} NAME_WE)
  add_test(NAME pmutool/golden-${name}
    COMMAND sh ${PMUTOOL_TESTS}/golden.sh ${PMUTOOL} ${cmd} ${CMAKE_SOURCE_DIR} ${PMUTOOL_DTB})
  set_tests_properties(pmutool/golden-${name} PROPERTIES FIXTURES_REQUIRED pmutool_dtb)
endforeach()
