# Tests on real POWER kernels (tests/qemu/): Debian's ppc64el kernels booted in QEMU's
# pseries machine run the static ppc64le build of pmutool and the probes.  They need what
# tests/qemu/fetch.sh puts in a cache (kernels, busybox) and a cross build
# (tests/qemu/ppc64le.cmake), so they are registered only with -DPMU_QEMU=ON, as .ci/run's
# stage "real POWER kernels (QEMU)" configures them; they carry the label `qemu`
# (ctest -L qemu).  A missing tool (qemu-system-ppc64, cpio, gdb-multiarch) fails the test
# naming its Debian package.
option(PMU_QEMU "Register the tests that boot POWER kernels in QEMU (tests/qemu)" OFF)
if(PMU_QEMU)
  set(PMU_QEMU_CACHE "" CACHE PATH "the directory tests/qemu/fetch.sh filled")
  set(PMU_QEMU_BIN "" CACHE PATH "bin/ of the static ppc64le build (tests/qemu/ppc64le.cmake)")
  if(NOT EXISTS "${PMU_QEMU_CACHE}/busybox")
    message(FATAL_ERROR "PMU_QEMU: no cache at PMU_QEMU_CACHE='${PMU_QEMU_CACHE}' "
      "(fill it with tests/qemu/fetch.sh DIR)")
  endif()
  if(NOT EXISTS "${PMU_QEMU_BIN}/pmutool")
    message(FATAL_ERROR "PMU_QEMU: no ppc64le pmutool in PMU_QEMU_BIN='${PMU_QEMU_BIN}' "
      "(build tests/qemu/ppc64le.cmake's qemu_guest target)")
  endif()
  set(PMU_QEMU_DIR ${CMAKE_CURRENT_SOURCE_DIR}/qemu)
  # pmu_qemu_test(NAME SCRIPT ARGS...): bash tests/qemu/SCRIPT ARGS with, in its
  # environment, the cache, both builds' programs, run-guest.sh and a work directory.
  # TIMEOUT: a backstop only; a guest that hangs is stopped by run-guest.sh
  # after --timeout seconds without progress, whatever the machine's load
  function(pmu_qemu_test name script)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/qemu/${name})
    add_test(NAME qemu_${name} COMMAND bash ${PMU_QEMU_DIR}/${script} ${ARGN})
    set_tests_properties(qemu_${name} PROPERTIES LABELS qemu TIMEOUT 1800 ENVIRONMENT
      "PMU_QEMU_CACHE=${PMU_QEMU_CACHE};PMU_QEMU_BIN=${PMU_QEMU_BIN};PMU_QEMU_RUN=${PMU_QEMU_DIR}/run-guest.sh;PMU_QEMU_WORK=${work};PMU_HOST_PMUTOOL=$<TARGET_FILE:pmutool>;PMU_HOST_BENCH_MUX=$<TARGET_FILE:bench_mux>;PMU_HOST_PAPI_CSV=$<TARGET_FILE:pmurt-papi-csv>;PMU_FAKESYS=${CMAKE_CURRENT_SOURCE_DIR}/fakesys")
  endfunction()
  # the harness itself: output, status, returned files, a failing /t/run, a timeout
  pmu_qemu_test(harness harness_test.sh)
  # pmutool in the guests (items 4 and 5 of issue 19), one boot each; power11 is QEMU's
  # power10 model with Power11's PVR (issue 24), on 6.1 too, which has no Power11 driver
  foreach(guest 6.1:power10 6.12:power10 6.12:power9 7:power10 6.12:power8 6.1:power11
                6.12:power11 7:power11)
    string(REPLACE ":" ";" kc ${guest})
    list(GET kc 0 kernel)
    list(GET kc 1 cpu)
    pmu_qemu_test(pmutool-${kernel}-${cpu} guest_test.sh ${kernel} ${cpu})
  endforeach()
  # libpfm.so.4 beside Debian's libpfm4 under Debian's PAPI and PCP (issue 25), one boot
  # each; power11 is a short round (libpfm4 finds no core PMU there, ours finds power11)
  foreach(guest 6.1:power10 6.12:power9 6.12:power8 6.12:power11)
    string(REPLACE ":" ";" kc ${guest})
    list(GET kc 0 kernel)
    list(GET kc 1 cpu)
    pmu_qemu_test(libpfm-${kernel}-${cpu} libpfm_test.sh ${kernel} ${cpu})
    set_tests_properties(qemu_libpfm-${kernel}-${cpu} PROPERTIES TIMEOUT 3200)
  endforeach()
endif()
