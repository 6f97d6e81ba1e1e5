# Groups and MMCRs on Debian's real POWER kernels under QEMU (issue 19, items
# 2 and 3): tests/qemu/groups/.  qg_gen makes groups from the description,
# qg_probe (static ppc64le) opens them in the guest with the real
# perf_event_open, gdb-multiarch reads the MMCRs through QEMU's gdb stub, and
# qg_compare holds the kernel's answers against pmurt_group_check's.
set(QG_DIR ${CMAKE_CURRENT_LIST_DIR}/qemu/groups)
foreach(tool qg_gen qg_compare)
  add_executable(${tool} ${QG_DIR}/${tool}.c ${QG_DIR}/qg_expect.c)
  target_include_directories(${tool} PRIVATE ${QG_DIR} ${CMAKE_SOURCE_DIR}/runtime
    ${CMAKE_SOURCE_DIR}/model ${CMAKE_SOURCE_DIR}/tables ${CMAKE_SOURCE_DIR}/validate)
  target_link_libraries(${tool} PRIVATE pmurt_internal)
endforeach()

# The tests boot kernels from the cache tests/qemu/fetch.sh fills, with
# tests/qemu/run-guest.sh, so they are registered with -DPMU_QEMU=ON only (as
# tests/qemu.cmake's are: .ci/run's QEMU stage), label `qemu`.  Each boot opens
# 5,500 groups and reads the MMCRs of 1,000 accepted ones (about 2 minutes on a
# quiet machine): POWER10 on 6.1 and 6.12, POWER9 on 6.12, POWER8 on 6.1, 6.12
# and 7, Power11 on 6.12 and 7.
if(PMU_QEMU)
  find_program(QG_CROSS_CC powerpc64le-linux-gnu-gcc)
  if(NOT QG_CROSS_CC)
    message(FATAL_ERROR "PMU_QEMU: powerpc64le-linux-gnu-gcc not found "
      "(Debian package gcc-powerpc64le-linux-gnu)")
  endif()
  execute_process(COMMAND ${QG_CROSS_CC} -print-file-name=libc.a
    OUTPUT_VARIABLE QG_CROSS_LIBC OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${QG_CROSS_LIBC}" OR NOT EXISTS "${QG_CROSS_LIBC}")
    message(FATAL_ERROR "PMU_QEMU: ${QG_CROSS_CC} finds no static libc "
      "(Debian package libc6-dev-ppc64el-cross)")
  endif()
  # the guest probe: one C file, no library, static so that busybox's
  # initramfs runs it as it is
  set(QG_PROBE ${CMAKE_CURRENT_BINARY_DIR}/qemu-groups/qg_probe)
  add_custom_command(OUTPUT ${QG_PROBE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/qemu-groups
    COMMAND ${QG_CROSS_CC} -static -O2 -Wall -Wextra -Werror -I${QG_DIR}
      -o ${QG_PROBE} ${QG_DIR}/qg_probe.c
    DEPENDS ${QG_DIR}/qg_probe.c ${QG_DIR}/qg_groups.h
    COMMENT "qg_probe for the ppc64le guest")
  add_custom_target(qg_probe ALL DEPENDS ${QG_PROBE})
  # kernel, -cpu, description, the PVR of QEMU's CPU model (power9 is DD2.0:
  # no refused-code list applies, so the groups that DD2.2's list would refuse
  # must be accepted: at least 100 of them; power11 is QEMU's power10 with
  # Power11's PVR written through the gdb stub, on the kernels that know
  # Power11), seed, groups answered otherwise at the description's own PVR,
  # the generator's kinds (POWER8: all sixteen, with its cache selectors,
  # fab-match codes, threshold bits and the values other generations refuse;
  # POWER8's rules do not depend on the PVR)
  foreach(run 6.1:power10:power10:00800200:61:0:legacy 6.12:power10:power10:00800200:612:0:legacy
              6.12:power9:power9:004e1200:912:100:legacy
              6.1:power8:power8:004d0200:81:0:all 6.12:power8:power8:004d0200:812:0:all
              7:power8:power8:004d0200:87:0:all
              6.12:power11:power11:00820200:1112:0:legacy 7:power11:power11:00820200:117:0:legacy)
    string(REPLACE ":" ";" f ${run})
    list(GET f 0 kernel)
    list(GET f 1 cpu)
    list(GET f 2 pmu)
    list(GET f 3 pvr)
    list(GET f 4 seed)
    list(GET f 5 pvr_dependent)
    list(GET f 6 kinds)
    set(name qemu_groups-${kernel}-${cpu})
    add_test(NAME ${name} COMMAND bash ${QG_DIR}/run.sh --kernel ${kernel} --cpu ${cpu}
      --pmu ${pmu} --pvr ${pvr} --seed ${seed} --count 5500 --mmcr 1000
      --gen $<TARGET_FILE:qg_gen> --compare $<TARGET_FILE:qg_compare> --probe ${QG_PROBE}
      --reader ${QG_DIR}/qg_mmcr_read.py --run-guest ${QG_DIR}/../run-guest.sh
      --min-pvr-dependent ${pvr_dependent} --kinds ${kinds} --cache ${PMU_QEMU_CACHE} --work ${CMAKE_CURRENT_BINARY_DIR}/qemu-groups/${kernel}-${cpu})
    set_tests_properties(${name} PROPERTIES LABELS qemu TIMEOUT 1800)
  endforeach()
endif()
