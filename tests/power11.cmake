# Power11 (issue 24): pmus/power11.yaml extends pmus/power10.yaml.  Every
# form of it is POWER10's but for the identity and records the relation
# (DTS and DTB equal to dtc's and valid, the model back from the DTB, the
# four libpmurt sources, the C tables pointing at POWER10's, the perf JSON
# that perf itself gives Power11, the RFC's reading), and pmutool answers as
# with POWER10.  Programs and scripts in tests/power11/; the format's errors
# are tests/checks/extends-*.yaml.
set(P11_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/power11)
set(P11_YAML ${CMAKE_SOURCE_DIR}/pmus/power11.yaml)
set(P11_P10_YAML ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
set(P11_OUT ${CMAKE_CURRENT_BINARY_DIR}/p11-work)
file(MAKE_DIRECTORY ${P11_OUT})
# a scratch directory per test run (ctest may run tests in parallel)
set(P11_TMP "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmu-p11.XXXXXX\") || exit 1
             trap 'rm -rf \"$t\"' EXIT")

# the model and libpmurt's API: POWER10's PMU, its own identity, a chain
add_executable(extends_test ${P11_TESTS}/extends_test.c)
target_include_directories(extends_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/runtime)
target_link_libraries(extends_test PRIVATE pmurt_internal)
add_test(NAME power11/model
  COMMAND sh -c "${P11_TMP}
                 \"$1\" \"$2\" \"$t\"" sh $<TARGET_FILE:extends_test> ${CMAKE_SOURCE_DIR})

# the checked-in tree is current; DTB = dtc of the DTS, firmware set and
# every event; YAML -> DTB -> model equal (extends and pvr-versions too)
add_test(NAME generated/dts-power11-current
  COMMAND sh -c "\"$1\" -q -o - \"$2\" | cmp - \"$3\"" sh
    ${PMUGEN} ${P11_YAML} ${CMAKE_SOURCE_DIR}/dts/power11.dts)
foreach(set default all-events)
  set(flag -q)
  if(set STREQUAL "all-events")
    set(flag --all-events)
  endif()
  add_test(NAME dt-dtb-equals-dtc-power11-${set}
    COMMAND sh -c "${P11_TMP}
                   \"$1\" -q $4 -f dts,dtb --out-dir \"$t\" \"$2\" 2>/dev/null &&
                   \"$3\" -I dts -O dtb -o \"$t/dtc.dtb\" \"$t/power11.dts\" &&
                   cmp \"$t/power11.dtb\" \"$t/dtc.dtb\"" sh
      ${PMUGEN} ${P11_YAML} ${DTC} ${flag})
endforeach()
add_test(NAME dt-roundtrip-power11 COMMAND dt_roundtrip ${P11_YAML})

# built-in, DTB, device-tree directory and YAML: one model, one answer
add_test(NAME sources/same-model-power11
  COMMAND sh -c "${P11_TMP}
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/power11.dtb\" \"$3\" &&
                 \"$2\" \"$t\" \"$t/power11.dtb\" \"$3\" power11" sh
    ${PMUGEN} $<TARGET_FILE:sources_test> ${P11_YAML})

# the C tables: Power11's identity and a pointer to POWER10's, which give
# back the YAML's model
add_test(NAME c-tables-power11 COMMAND c_tables_test ${P11_YAML})

# perf JSON: POWER10's, byte for byte, which is what perf gives a Power11
# (its mapfile.csv sends PVR 0x0082xxxx to power10/), and perf's own
# POWER10 files; our processor versions against perf's map
add_test(NAME json-power11-is-power10
  COMMAND sh -c "${P11_TMP}
                 \"$1\" -q -f json -o \"$t/p11.json\" \"$2\" && \"$1\" -q -f json -o \"$t/p10.json\" \"$3\" &&
                 cmp \"$t/p10.json\" \"$t/p11.json\" && \"$4\" \"$t/p11.json\" \"$5\"" sh
    ${PMUGEN} ${P11_YAML} ${P11_P10_YAML} $<TARGET_FILE:json_compare> ${TESTDATA}/perf-json/power10)
add_test(NAME json-perf-map
  COMMAND ${PMU_SYSTEM_PYTHON3} ${P11_TESTS}/perf_map.py ${TESTDATA}/perf-json/mapfile.csv
    ${CMAKE_SOURCE_DIR}/dts/power10.dts ${CMAKE_SOURCE_DIR}/dts/power9.dts
    ${CMAKE_SOURCE_DIR}/dts/power11.dts)

# the JSON Schema takes the extension (and its base), as pmugen does
add_test(NAME schema/power11
  COMMAND ${PMU_SYSTEM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/schema/validate_yaml.py
    --schema ${CMAKE_SOURCE_DIR}/schema/pmu-description.schema.json --pmugen ${PMUGEN} ${P11_YAML})

# dt-validate: the firmware tree and every event (dts/power11.dts: binding.cmake)
add_test(NAME binding/power11-firmware
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/binding/run.sh valid ${PMUGEN} ${P11_YAML})
add_test(NAME binding/power11-all-events
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/binding/run.sh valid ${PMUGEN} ${P11_YAML} --all-events)

# what the kernel RFC's parser cannot say of Power11 is what it cannot say
# of POWER10, at POWER10's lines: the rules are POWER10's (a warning about
# the whole description names the extension's file)
add_test(NAME check/rfc-power11
  COMMAND sh -c "cd \"$2\" && \"$1\" --check -q -W rfc pmus/power11.yaml 2>&1 >/dev/null |
                 sed 's|^pmus/power11.yaml: warning: |pmus/power10.yaml: warning: |' |
                 diff -u tests/checks/rfc-power10.expected -" sh
    ${PMUGEN} ${CMAKE_SOURCE_DIR})

# the RFC's parser reading Power11's tree answers 6,000 generated groups and
# the kernel's 500 POWER10 vectors exactly as reading POWER10's, and
# registers the same events (tests/rfc; schema/rfc-conformance.md)
add_test(NAME rfc/power11-as-power10
  COMMAND sh -c "${P11_TMP}
                 \"$1\" -q -f dtb -o \"$t/p10.dtb\" \"$3\" && \"$1\" -q -f dtb -o \"$t/p11.dtb\" \"$4\" &&
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/p10-all.dtb\" \"$3\" &&
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/p11-all.dtb\" \"$4\" &&
                 for p in p10:$3 p11:$4; do
                   y=\${p#*:} p=\${p%%:*}
                   \"$2\" groups \"$t/$p.dtb\" \"$y\" 6000 5800 >\"$t/$p-groups.txt\" &&
                   \"$2\" vectors \"$t/$p.dtb\" \"$y\" \"$5\" 488 >\"$t/$p-vectors.txt\" &&
                   \"$2\" events \"$t/$p-all.dtb\" \"$y\" >\"$t/$p-events.txt\" || exit 1
                 done &&
                 for f in groups vectors events; do
                   sed \"s|$t/p1[01]|TREE|g; s/Power11 PMU/POWER10 PMU/g\" \"$t/p10-$f.txt\" >\"$t/p10-$f.same\" &&
                   sed \"s|$t/p1[01]|TREE|g; s/Power11 PMU/POWER10 PMU/g\" \"$t/p11-$f.txt\" |
                     diff \"$t/p10-$f.same\" - || exit 1
                 done &&
                 cat \"$t/p11-groups.txt\" \"$t/p11-vectors.txt\"" sh
    ${PMUGEN} $<TARGET_FILE:rfc_groups> ${P11_P10_YAML} ${P11_YAML} ${TESTDATA}/kernel/p10_mmcr_sample.json)

# pmutool: the kernel's 500 POWER10 vectors from each Power11 source, and
# every answer as POWER10's (items 2 and 4)
add_test(NAME pmutool/mmcr-vectors-power11
  COMMAND pmutool_vectors mmcr $<TARGET_FILE:pmutool> ${TESTDATA}/kernel/p10_mmcr_sample.json 500
    --pmu power11)
add_test(NAME power11/pmutool-as-power10
  COMMAND sh ${P11_TESTS}/as_power10.sh $<TARGET_FILE:pmutool> ${PMUGEN}
    $<TARGET_FILE:pmutool_vectors> ${CMAKE_SOURCE_DIR} ${P11_OUT}/as-power10)

# out of memory while loading the extension: its base (POWER10 cut as in
# alloc/enomem) and its own part, and the built-in that points at POWER10's
add_test(NAME alloc/enomem-power11
  COMMAND sh -c "${P11_TMP}
                 sed '/^presets:/,$d' \"$2\" >\"$t/power10.yaml\" &&
                 head -n 84 \"$3\" >\"$t/power10-events.yaml\" && cp \"$4\" \"$t/power11.yaml\" &&
                 \"$1\" \"$t/power11.yaml\" power11" sh
    $<TARGET_FILE:alloc_test> ${P11_P10_YAML} ${CMAKE_SOURCE_DIR}/pmus/power10-events.yaml ${P11_YAML})
set_tests_properties(alloc/enomem-power11 PROPERTIES
  ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/alloc/lsan.supp")
