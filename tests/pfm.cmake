# libpmurt's libpfm.so.4 (pfm/, doc/libpfm.md).  pfm_dump prints what a libpfm.so.4 answers,
# built twice: against ours and against Debian's libpfm4 (libpfm4-dev), to diff the two.
add_executable(pfm_dump ${CMAKE_CURRENT_LIST_DIR}/pfm/pfm_dump.c)
target_include_directories(pfm_dump SYSTEM PRIVATE ${PFM_HEADER_DIR})
target_link_libraries(pfm_dump PRIVATE pfm)
add_executable(pfm_dump_libpfm4 ${CMAKE_CURRENT_LIST_DIR}/pfm/pfm_dump.c)
target_include_directories(pfm_dump_libpfm4 SYSTEM PRIVATE ${PFM_HEADER_DIR})
target_link_libraries(pfm_dump_libpfm4 PRIVATE ${PFM_DEBIAN_LIB})

# the ABI as a caller sees it, over the shared library itself
add_executable(pfm_abi_test ${CMAKE_CURRENT_LIST_DIR}/pfm/pfm_abi_test.c)
target_include_directories(pfm_abi_test PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_SOURCE_DIR}/include)
target_include_directories(pfm_abi_test SYSTEM PRIVATE ${PFM_HEADER_DIR})
target_link_libraries(pfm_abi_test PRIVATE pfm)
add_test(NAME pfm/abi COMMAND pfm_abi_test)
# Power11 through libpmurt's detection (a sysfs whose cpu PMU says POWER11)
add_test(NAME pfm/power11 COMMAND sh -c "t=$(mktemp -d) && trap 'rm -rf $t' EXIT &&
  mkdir -p $t/bus/event_source/devices/cpu/caps && echo 4 >$t/bus/event_source/devices/cpu/type &&
  echo POWER11 >$t/bus/event_source/devices/cpu/caps/pmu_name && \"$0\" power11 $t"
  $<TARGET_FILE:pfm_abi_test>)
# the generic perf and perf_raw PMUs against Debian's libpfm4 itself
add_test(NAME pfm/perf-vs-libpfm4 COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pfm/perf_vs_libpfm4.sh
  $<TARGET_FILE:pfm_dump> $<TARGET_FILE:pfm_dump_libpfm4>)
# exactly the 13 functions Debian's libpfm.so.4 exports, and the soname
add_test(NAME pfm/exports COMMAND sh -c "
  ours=$(nm -D --defined-only \"$0\" | awk '$2 == \"T\" { print $3 }' | sort) &&
  deb=$(nm -D --defined-only \"$1\" | awk '$2 == \"T\" { print $3 }' | sort) &&
  echo \"$ours\" && [ \"$ours\" = \"$deb\" ] && [ $(echo \"$ours\" | wc -l) -eq 13 ] &&
  readelf -d \"$0\" | grep -q 'SONAME.*\\[libpfm.so.4\\]'" $<TARGET_FILE:pfm> ${PFM_DEBIAN_LIB})
# libpfm4's own tests/validate against ours: its source comes with the QEMU stage's cache
# (tests/qemu/fetch.sh), so the test is registered there (-DPMU_QEMU=ON, label qemu)
if(PMU_QEMU)
  add_test(NAME pfm/validate COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pfm/validate_test.sh
    ${PMU_QEMU_CACHE}/src/libpfm4-tests $<TARGET_FILE_DIR:pfm>
    ${CMAKE_CURRENT_LIST_DIR}/pfm/validate-expected.txt)
  set_tests_properties(pfm/validate PROPERTIES LABELS qemu ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
endif()
