# The kernel RFC's parser reading pmugen's tree (issue 17): tests/rfc/
# rfc_parser.c models what the RFC's dts_pmu.c reads and how its
# isa207_get_constraint_dts and the core-book3s group flow answer a group;
# rfc_groups compares its answers on generated POWER10 and POWER9 groups
# and on kernel-derived vectors with libpmurt's (the kernel's), at the
# description's ISA level, and checks the events the RFC registers from the
# --all-events tree.
set(RFC_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/rfc)
add_executable(rfc_groups ${RFC_TESTS}/rfc_groups.c ${RFC_TESTS}/rfc_parser.c)
target_include_directories(rfc_groups PRIVATE ${RFC_TESTS})
target_link_libraries(rfc_groups PRIVATE pmurt PkgConfig::FDT PkgConfig::JANSSON)

set(RFC_P10 ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
set(RFC_P9 ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)
set(RFC_P8 ${CMAKE_SOURCE_DIR}/pmus/power8.yaml)
# 6,000 groups from the default (firmware-set) tree: every disagreement must
# be the RFC's own computation (no check_attr_config; rules applied by
# condition where the kernel does not apply them), and at least 5,800 agree
# (5,825 measured: this generator draws reserved sampling values more often
# than issue 17's group set did).
add_test(NAME rfc/power10-groups
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -f dtb -o \"$t/p10.dtb\" \"$3\" && \"$2\" groups \"$t/p10.dtb\" \"$3\" 6000 5800" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P10})
# Issue 17's own groups: p10_mmcr_sample.json holds 500 of its 6,000 (ids
# 8-5973) with the kernel's recorded answers, which libpmurt must give too.
# Its goal, 5,850 of 6,000, is 487.5 of 500: at least 488 must agree (489
# measured; the other 11 are the RFC's computation, as above).
add_test(NAME rfc/power10-kernel-vectors
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -f dtb -o \"$t/p10.dtb\" \"$3\" && \"$2\" vectors \"$t/p10.dtb\" \"$3\" \"$4\" 488" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P10} ${TESTDATA}/kernel/p10_mmcr_sample.json)
# POWER9 (ISA 3.0: the RFC's cache-group/cache-pmc4 branch, no radix
# condition): p9_mmcr_sample.json's 500 DD2.2 groups.  Every disagreement
# must be one of the RFC's own gaps (no check_attr_config, is_event_valid,
# blacklist or is_thresh_cmp_valid; rules by condition; the hard-coded
# alternatives table); 394 agree (measured; 368 before the tree said the
# PMC4 rule of L2/L3 groups through cache-group, 349 with cache-pmc4's mask).
add_test(NAME rfc/power9-kernel-vectors
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -f dtb -o \"$t/p9.dtb\" \"$3\" && \"$2\" vectors \"$t/p9.dtb\" \"$3\" \"$4\" 394" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P9} ${TESTDATA}/kernel/p9_mmcr_sample.json)
# 6,000 generated POWER9 groups, the same way (5,701 measured; most of the
# rest reserved codes).
add_test(NAME rfc/power9-groups
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -f dtb -o \"$t/p9.dtb\" \"$3\" && \"$2\" groups \"$t/p9.dtb\" \"$3\" 6000 5690" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P9})
# 6,000 generated POWER8 groups (ISA 2.07: neither ISA 3.0 nor 3.1 branch):
# every disagreement one of the RFC's gaps (no is_event_valid, no L2/L3
# cache-selector rule it could apply to units 6-9 alone, the hard-coded
# alternatives); 5,838 agree (measured).  The fab-match events, which its
# generator seldom draws, are schema/rfc-conformance.md's example.
add_test(NAME rfc/power8-groups
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -f dtb -o \"$t/p8.dtb\" \"$3\" && \"$2\" groups \"$t/p8.dtb\" \"$3\" 6000 5838" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P8})
# Control: the POWER9 tree without the pmc field's bit in cache-group's
# event-mask (so bit 54 is in its mask with no value, as a tree saying the
# rule on cache-pmc4 gets) loses 20 groups to the PMC4 rule, which the
# classifier must find by adding the kernel's rule.
add_test(NAME rfc/power9-pmc4-control
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -o \"$t/orig.dts\" \"$3\" && grep -q 'event-mask = <0x400ff>;' \"$t/orig.dts\" &&
                 sed 's/event-mask = <0x400ff>;/event-mask = <0xff>;/' \"$t/orig.dts\" > \"$t/p9.dts\" &&
                 \"$5\" -q -I dts -O dtb -o \"$t/p9.dtb\" \"$t/p9.dts\" &&
                 \"$2\" vectors \"$t/p9.dtb\" \"$3\" \"$4\" 0 > \"$t/out\" &&
                 grep -E 'PMC4 rule of L2/L3 groups.* 20$' \"$t/out\"" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P9} ${TESTDATA}/kernel/p9_mmcr_sample.json ${DTC})
# --all-events: the firmware events come first, names unique in 31 characters.
add_test(NAME rfc/power10-all-events-names
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/p10.dtb\" \"$3\" && \"$2\" events \"$t/p10.dtb\" \"$3\"" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P10})
# Control: skiboot's transcribed tree (4-cell masks, no max-counter read
# right) is misread, which the classification above must notice.
add_test(NAME rfc/skiboot-tree-misread
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -I dts -O dtb -o \"$t/skiboot.dtb\" \"$3\" && \"$2\" groups \"$t/skiboot.dtb\" \"$4\" 6000 -1" sh
    ${DTC} $<TARGET_FILE:rfc_groups> ${TESTDATA}/skiboot/skiboot-power10-pmu.dts ${RFC_P10})
# The groups of schema/rfc-conformance.md: both answers and the registers
# each side programs, as the document shows them.
add_test(NAME rfc/conformance-examples
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-rfc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 \"$1\" -q -f dtb -o \"$t/p10.dtb\" \"$3\" && \"$1\" -q -f dtb -o \"$t/p9.dtb\" \"$5\" &&
                 \"$1\" -q -f dtb -o \"$t/p8.dtb\" \"$6\" &&
                 sh \"$4/conformance.sh\" \"$2\" \"$4/conformance.txt\" power10 \"$t/p10.dtb\" \"$3\" power9 \"$t/p9.dtb\" \"$5\" power8 \"$t/p8.dtb\" \"$6\" | diff -u \"$4/conformance.expected\" -" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${RFC_P10} ${RFC_TESTS} ${RFC_P9} ${RFC_P8})
