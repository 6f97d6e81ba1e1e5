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
