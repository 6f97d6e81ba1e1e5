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
#     description source; and the three answer byte for byte alike.  The
#     runner requires exactly P10_VECTOR_COUNT vectors.
set(P10_VECTOR_COUNT 500)
add_test(NAME pmutool/mmcr-vectors
  COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS} ${P10_VECTOR_COUNT})
add_test(NAME pmutool/mmcr-vectors-yaml
  COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS} ${P10_VECTOR_COUNT} --pmu ${PMUTOOL_YAML})
add_test(NAME pmutool/mmcr-vectors-dtb
  COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS} ${P10_VECTOR_COUNT} --pmu ${PMUTOOL_DTB})
add_test(NAME pmutool/sources-agree
  COMMAND sh ${PMUTOOL_TESTS}/sources_agree.sh ${PMUTOOL} ${VECTORS} ${P10_VECTORS}
          ${PMUTOOL_YAML} ${PMUTOOL_DTB} ${PMUTOOL_OUT})
set_tests_properties(pmutool/mmcr-vectors-dtb pmutool/sources-agree PROPERTIES
  FIXTURES_REQUIRED pmutool_dtb)

# (1b) every vector of p9_mmcr_sample.json (POWER9 DD2.2, Linux 6.12) the
#      same way.  POWER9 has no MMCR3 (ISA 3.1): --absent=mmcr3 lets the
#      runner take the missing register as compute_mmcr's 0.
set(P9_YAML ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)
set(P9_VECTORS ${TESTDATA}/kernel/p9_mmcr_sample.json)
set(P9_VECTOR_COUNT 500)
set(P9_DTB ${PMUTOOL_OUT}/power9-all.dtb)
add_test(NAME pmutool/p9-make-dtb
  COMMAND ${PMUGEN} -q --all-events -W no-kernel-limits -f dtb -o ${P9_DTB} ${P9_YAML})
set_tests_properties(pmutool/p9-make-dtb PROPERTIES FIXTURES_SETUP p9_dtb)
add_test(NAME pmutool/p9-mmcr-vectors
  COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P9_VECTORS} ${P9_VECTOR_COUNT} --absent=mmcr3 --pmu power9)
add_test(NAME pmutool/p9-mmcr-vectors-yaml
  COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P9_VECTORS} ${P9_VECTOR_COUNT} --absent=mmcr3 --pmu ${P9_YAML})
add_test(NAME pmutool/p9-mmcr-vectors-dtb
  COMMAND ${VECTORS} mmcr ${PMUTOOL} ${P9_VECTORS} ${P9_VECTOR_COUNT} --absent=mmcr3 --pmu ${P9_DTB})
set_tests_properties(pmutool/p9-mmcr-vectors-dtb PROPERTIES FIXTURES_REQUIRED p9_dtb)
# POWER9 cases derived by hand (kernel_cases_power9.txt), from each source,
# and the refused codes by processor revision (DD2.1, DD2.2, Cumulus, DD2.3).
# pmu_kernel_cases(P NAME YAML DTB FIXTURE): P's hand-derived cases
# (kernel_cases_NAME.txt) from the built-in tables, the YAML and the DTB;
# neither POWER9 nor POWER8 has MMCR3 (ISA 3.1).
function(pmu_kernel_cases p name yaml dtb fixture)
  set(cases ${PMUTOOL_TESTS}/kernel_cases_${name}.txt)
  add_test(NAME pmutool/${p}-kernel-cases
    COMMAND ${VECTORS} cases ${PMUTOOL} ${cases} --absent=mmcr3 --pmu ${name})
  add_test(NAME pmutool/${p}-kernel-cases-yaml
    COMMAND ${VECTORS} cases ${PMUTOOL} ${cases} --absent=mmcr3 --pmu ${yaml})
  add_test(NAME pmutool/${p}-kernel-cases-dtb
    COMMAND ${VECTORS} cases ${PMUTOOL} ${cases} --absent=mmcr3 --pmu ${dtb})
  set_tests_properties(pmutool/${p}-kernel-cases-dtb PROPERTIES FIXTURES_REQUIRED ${fixture})
endfunction()
pmu_kernel_cases(p9 power9 ${P9_YAML} ${P9_DTB} p9_dtb)
# libpfm4's whole POWER9 table (958 entries, kept in tests/data/libpfm4)
# against ours: the same code for every shared name but the 13 pinned
# differences (PM_CYC 0x1001e / 0x1e and PM_INST_CMPL 0x10002 / 0x2 among
# them; kernel_cases_power9.txt says what the kernel does with each form).
add_test(NAME pmutool/p9-libpfm4-codes
  COMMAND ${PMU_SYSTEM_PYTHON3} ${PMUTOOL_TESTS}/libpfm4_compare.py ${PMUTOOL} power9
          ${TESTDATA}/libpfm4/power9-events.tsv 958
          ${TESTDATA}/libpfm4/power9-expected-differences.tsv)
add_test(NAME pmutool/p9-revisions
  COMMAND sh ${PMUTOOL_TESTS}/p9_revisions.sh ${PMUTOOL} ${P9_YAML})

# (1c) POWER8 cases derived by hand (kernel_cases_power8.txt), one or more per
#      way POWER8's driver differs, from the built-in tables, the YAML and a
#      DTB.  POWER8 has no MMCR3 either.  (No vectors: QEMU's stage holds
#      POWER8's groups and MMCRs against the real kernels.)
set(P8_YAML ${CMAKE_SOURCE_DIR}/pmus/power8.yaml)
set(P8_DTB ${PMUTOOL_OUT}/power8-all.dtb)
add_test(NAME pmutool/p8-make-dtb
  COMMAND ${PMUGEN} -q --all-events -W no-kernel-limits -f dtb -o ${P8_DTB} ${P8_YAML})
set_tests_properties(pmutool/p8-make-dtb PROPERTIES FIXTURES_SETUP p8_dtb)
pmu_kernel_cases(p8 power8 ${P8_YAML} ${P8_DTB} p8_dtb)
# libpfm4's whole POWER8 table (1,063 entries of libpfm4 4.13.0, Debian 12's
# source): all 960 of perf's names are in it, 952 with our code; the 8 others
# carry the threshold start/stop events perf's codes lack
# (kernel_cases_power8.txt says what the kernel does with each form).
add_test(NAME pmutool/p8-libpfm4-codes
  COMMAND ${PMU_SYSTEM_PYTHON3} ${PMUTOOL_TESTS}/libpfm4_compare.py ${PMUTOOL} power8
          ${TESTDATA}/libpfm4/power8-events.tsv 1063
          ${TESTDATA}/libpfm4/power8-expected-differences.tsv)

# (2) p10_selftests.json by category, each with its pinned number of cases.
#     selftests-accounting checks that these and the case named not-tested
#     (it checks MMCR0 PMAO/PMAE, set at interrupt time, not by compute_mmcr)
#     make up all 72 cases, so an added or removed case fails.
set(P10_SELFTEST_TOTAL 72)
set(P10_SELFTEST_CATEGORIES raw:51 branch:6 generic:14)
set(P10_SELFTESTS_NOT_TESTED not-tested:mmcr0_exceptionbits)
foreach(cat_count ${P10_SELFTEST_CATEGORIES})
  string(REPLACE ":" ";" cat_count "${cat_count}")
  list(GET cat_count 0 cat)
  list(GET cat_count 1 count)
  add_test(NAME pmutool/selftests-${cat}
    COMMAND ${VECTORS} selftests ${PMUTOOL} ${P10_SELFTESTS} ${cat} ${count})
endforeach()
add_test(NAME pmutool/selftests-accounting
  COMMAND ${VECTORS} account ${P10_SELFTESTS} ${P10_SELFTEST_TOTAL}
          ${P10_SELFTEST_CATEGORIES} ${P10_SELFTESTS_NOT_TESTED})

# (3) cases derived by hand from the kernel source (reasoning in the file).
add_test(NAME pmutool/kernel-cases
  COMMAND ${VECTORS} cases ${PMUTOOL} ${PMUTOOL_TESTS}/kernel_cases.txt)

# The runner itself fails when it checked nothing or its input is incomplete:
# each run must exit 1 with the message given (tests/pmutool/runner/ holds
# the broken inputs).
set(RUNNER_INPUTS ${PMUTOOL_TESTS}/runner)
function(pmutool_runner_fails name message)
  add_test(NAME pmutool/runner-fails-${name}
    COMMAND sh ${PMUTOOL_TESTS}/expect_failure.sh "${message}" ${ARGN})
endfunction()
pmutool_runner_fails(empty-vectors "mmcr vectors: no cases"
  ${VECTORS} mmcr ${PMUTOOL} ${RUNNER_INPUTS}/empty-vectors.json 0)
pmutool_runner_fails(vector-count "500 cases, expected 499"
  ${VECTORS} mmcr ${PMUTOOL} ${P10_VECTORS} 499)
pmutool_runner_fails(empty-category "selftests (branch): no cases"
  ${VECTORS} selftests ${PMUTOOL} ${RUNNER_INPUTS}/selftests.json branch 0)
pmutool_runner_fails(category-count "selftests (raw): 1 cases, expected 2"
  ${VECTORS} selftests ${PMUTOOL} ${RUNNER_INPUTS}/selftests.json raw 2)
pmutool_runner_fails(unaccounted-selftest "mmcr0_exceptionbits: checks interrupt-time state and is not named not-tested"
  ${VECTORS} account ${RUNNER_INPUTS}/selftests.json 2 raw:1)
pmutool_runner_fails(selftest-total "expected 72"
  ${VECTORS} account ${RUNNER_INPUTS}/selftests.json 72 raw:1 not-tested:mmcr0_exceptionbits)
pmutool_runner_fails(no-cases "hand-derived cases: nothing was checked"
  ${VECTORS} cases ${PMUTOOL} ${RUNNER_INPUTS}/no-cases.txt)
pmutool_runner_fails(dangling-in "an 'in' line but no 'out' line"
  ${VECTORS} cases ${PMUTOOL} ${RUNNER_INPUTS}/dangling-in.txt)
pmutool_runner_fails(accepted-without-mmcr3 "an accepted case must state mmcr3"
  ${VECTORS} cases ${PMUTOOL} ${RUNNER_INPUTS}/accepted-without-mmcr3.txt)
# --absent=REG only excuses the register named: without it POWER9's missing
# MMCR3 fails every accepted vector.
pmutool_runner_fails(absent-register-not-named "mmcr3 (none), expected 0x0"
  ${VECTORS} mmcr ${PMUTOOL} ${P9_VECTORS} ${P9_VECTOR_COUNT} --pmu power9)

# (4) exact outputs: one test per golden/NAME.cmd (exit status and arguments),
#     compared with golden/NAME.out (and NAME.err when present).
file(GLOB pmutool_golden ${PMUTOOL_TESTS}/golden/*.cmd)
pmu_require_files(pmutool_golden "tests/pmutool/golden/*.cmd")
list(SORT pmutool_golden)
foreach(cmd ${pmutool_golden})
  get_filename_component(name ${cmd} NAME_WE)
  add_test(NAME pmutool/golden-${name}
    COMMAND sh ${PMUTOOL_TESTS}/golden.sh ${PMUTOOL} ${cmd} ${CMAKE_SOURCE_DIR} ${PMUTOOL_DTB})
  set_tests_properties(pmutool/golden-${name} PROPERTIES FIXTURES_REQUIRED pmutool_dtb)
endforeach()

# elfutils only for report and script (tools/report/elf_lib.c): not linked, not
# loaded by check, dlopened by report, a missing soname named with its
# Debian package
add_test(NAME pmutool/elf-dlopen
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pmutool/elf_dlopen.sh ${CMAKE_BINARY_DIR}/bin
    ${PMUTOOL_STATIC_LIBS} ${PMUTOOL_LIBELF_SONAME} ${PMUTOOL_LIBDW_SONAME})

# the command line where the output names this host or a property is the
# point (tests/pmutool/cli.sh)
set(PMUTOOL_CLI_CASES dtl-global-sysfs record-cpu help record-args check-args event-messages)
foreach(case ${PMUTOOL_CLI_CASES})
  add_test(NAME pmutool/cli-${case}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pmutool/cli.sh ${case} $<TARGET_FILE:pmutool>
      ${PMUGEN} ${PMUTOOL_YAML})
endforeach()

# bash completion (completions/pmutool, completions/pmugen): sourced into
# bash and asked what Tab gives
add_test(NAME pmutool/bash-completion
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pmutool/completion.sh ${CMAKE_BINARY_DIR}/bin
    ${CMAKE_SOURCE_DIR}/completions)

# pmutool uses libpmurt's public headers only (tests/pmutool/public_headers.sh)
add_test(NAME pmutool/public-headers
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pmutool/public_headers.sh ${CMAKE_SOURCE_DIR})

# list: the host's software events, PMU events and tracepoints as perf list
# shows them, and a simulated LPAR's (tests/pmutool/list-host.sh)
add_test(NAME pmutool/list-host
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pmutool/list-host.sh ${CMAKE_BINARY_DIR}/bin)
