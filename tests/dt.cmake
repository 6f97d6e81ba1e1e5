# Device tree: DTS and DTB output, the DTB loader, and its robustness.
# Programs live in tests/dt/; they link pmumodel and build pmugen's tree
# emitters in directly.
set(DT_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/dt)
set(DT_OUT ${CMAKE_CURRENT_BINARY_DIR}/dt)
set(DT_P10 ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
set(DT_SKIBOOT ${TESTDATA}/skiboot/skiboot-power10-pmu.dts)
file(MAKE_DIRECTORY ${DT_OUT})

set(DT_EMITTERS
  ${CMAKE_SOURCE_DIR}/pmugen/dt_tree.c
  ${CMAKE_SOURCE_DIR}/pmugen/emit_dts.c
  ${CMAKE_SOURCE_DIR}/pmugen/emit_dtb.c
  ${CMAKE_SOURCE_DIR}/pmugen/outbuf.c)
foreach(prog dt_roundtrip dt_corrupt dt_skiboot dt_old_layout)
  add_executable(${prog} ${DT_TESTS}/${prog}.c ${DT_TESTS}/dt_util.c ${DT_EMITTERS})
  target_include_directories(${prog} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/pmugen ${DT_TESTS})
  target_link_libraries(${prog} PRIVATE pmumodel PkgConfig::FDT)
endforeach()

# (a) pmugen's DTB is byte-identical to dtc's compilation of pmugen's DTS,
#     for the firmware set and for every event.
set(DT_P9 ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)
set(DT_P8 ${CMAKE_SOURCE_DIR}/pmus/power8.yaml)
foreach(pmu p10 p9 p8)
  foreach(set default all-events)
    if(set STREQUAL "all-events")
      set(flag --all-events)
    else()
      set(flag -q)
    endif()
    set(name dt-dtb-equals-dtc-${set})
    if(pmu STREQUAL "p9")
      set(name dt-dtb-equals-dtc-power9-${set})
    elseif(pmu STREQUAL "p8")
      set(name dt-dtb-equals-dtc-power8-${set})
    endif()
    string(TOUPPER ${pmu} PMU)
    add_test(NAME ${name}
      COMMAND sh -c "\"$0\" -q $4 -f dts -o \"$1.dts\" \"$2\" 2>/dev/null && \"$0\" -q $4 -f dtb -o \"$1.dtb\" \"$2\" 2>/dev/null && \"$3\" -I dts -O dtb -o \"$1.dtc.dtb\" \"$1.dts\" && cmp \"$1.dtb\" \"$1.dtc.dtb\""
        ${PMUGEN} ${DT_OUT}/${pmu}-${set} ${DT_${PMU}} ${DTC} "${flag}")
  endforeach()
endforeach()

# (b) dtc compiles the default DTS, and pmugen's DTB, without a warning
#     (dtc exits 0 on warnings, so its standard error must stay empty).
add_test(NAME dt-dts-no-dtc-warnings
  COMMAND sh -c "\"$0\" -q -f dts -o \"$1.dts\" \"$2\" 2>/dev/null && \"$0\" -q -f dtb -o \"$1.dtb\" \"$2\" 2>/dev/null && \"$3\" -I dts -O dtb -o /dev/null \"$1.dts\" 2>\"$1.err\" && \"$3\" -I dtb -O dtb -o /dev/null \"$1.dtb\" 2>>\"$1.err\" && test ! -s \"$1.err\" || { cat \"$1.err\"; exit 1; }"
    ${PMUGEN} ${DT_OUT}/warnings ${DT_P10} ${DTC})

# (c) YAML -> DTB -> model equals the YAML's model; re-emission is identical;
#     the default tree is the firmware set.
#     Strings with quotes, backslashes, control characters and UTF-8 load
#     back from the DTB, and dtc reads the DTS escapes back to the same bytes.
add_test(NAME dt-roundtrip-power10
  COMMAND sh -c "\"$0\" \"$1\" \"$2\" && \"$3\" -I dts -O dtb -o \"$2.dtc.dtb\" \"$2.dts\" && cmp \"$2.dtb\" \"$2.dtc.dtb\""
    $<TARGET_FILE:dt_roundtrip> ${DT_P10} ${DT_OUT}/odd-strings ${DTC})

add_test(NAME dt-roundtrip-power9 COMMAND dt_roundtrip ${DT_P9})
add_test(NAME dt-roundtrip-power8 COMMAND dt_roundtrip ${DT_P8})

# (d) truncated, bit-flipped and hand-broken DTBs fail with a message naming
#     the node and property, and never crash (run it in a PMU_SANITIZE build).
add_test(NAME dt-corrupt-dtb COMMAND dt_corrupt ${DT_P10})

# The skiboot reference tree (compiled by dtc) loads as far as it carries
# the description.
add_test(NAME dt-skiboot-reference
  COMMAND sh -c "\"$0\" -I dts -O dtb -o \"$1\" \"$2\" && \"$3\" \"$1\""
    ${DTC} ${DT_OUT}/skiboot-power10.dtb ${DT_SKIBOOT} $<TARGET_FILE:dt_skiboot>)

# A tree in the layout before the RFC vocabulary (tests/data/old-layout)
# still loads, warning per node with the node the RFC reads instead.
add_test(NAME dt-old-layout
  COMMAND sh -c "\"$0\" -I dts -O dtb -o \"$1\" \"$2\" && \"$3\" \"$1\" \"$4\""
    ${DTC} ${DT_OUT}/power10-pre-rfc.dtb ${TESTDATA}/old-layout/power10-pre-rfc.dts
    $<TARGET_FILE:dt_old_layout> ${DT_P10})

# libFuzzer target for the loader (PMU_FUZZ=ON, clang), seeded with pmugen's
# trees and skiboot's and with the inputs it once failed on (dt/fuzz_dtb-regressions);
# a loaded model must survive emit -> load unchanged.
if(PMU_FUZZ)
  set(FUZZ_RUNS 20000 CACHE STRING "mutations per fuzz target in ctest")
  set(DT_FUZZ_WORK ${DT_OUT}/fuzz_dtb-corpus)
  set(DT_FUZZ_SEEDS ${DT_OUT}/fuzz_dtb-seeds)
  file(MAKE_DIRECTORY ${DT_FUZZ_WORK} ${DT_FUZZ_SEEDS})
  add_executable(fuzz_dtb ${DT_TESTS}/fuzz_dtb.c ${DT_TESTS}/dt_util.c ${DT_EMITTERS})
  target_include_directories(fuzz_dtb PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/pmugen ${DT_TESTS})
  target_link_libraries(fuzz_dtb PRIVATE pmumodel PkgConfig::FDT)
  target_link_options(fuzz_dtb PRIVATE -fsanitize=fuzzer)
  add_test(NAME fuzz/fuzz_dtb
    COMMAND sh -c "\"$0\" -q -f dtb -o \"$2/p10.dtb\" \"$1\" 2>/dev/null && \"$3\" -I dts -O dtb -o \"$2/skiboot.dtb\" \"$4\" && \"$5\" -runs=$6 -max_len=65536 -timeout=10 \"$7\" \"$2\" \"$8\""
      ${PMUGEN} ${DT_P10} ${DT_FUZZ_SEEDS} ${DTC} ${DT_SKIBOOT}
      $<TARGET_FILE:fuzz_dtb> ${FUZZ_RUNS} ${DT_FUZZ_WORK} ${DT_TESTS}/fuzz_dtb-regressions)
endif()
