# Test scaffolding, never in the shipped library (tests/support/): the
# simulated kernel (sys_sim.c, behind the perf side's narrow syscall layer
# perf/sys.h), its vpa_dtl driver (sim_dtl.c) and the generator of
# realistic DTL streams that feeds it and the decoder's tests (dtl_gen.c).
# The tests and the benchmarks link it as pmusim.
set(SUPPORT ${CMAKE_CURRENT_LIST_DIR}/support)
add_library(pmusim STATIC ${SUPPORT}/sys_sim.c ${SUPPORT}/sim_dtl.c ${SUPPORT}/dtl_gen.c)
target_include_directories(pmusim PUBLIC ${SUPPORT} ${CMAKE_SOURCE_DIR}/perf
  ${CMAKE_SOURCE_DIR}/events
  ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(pmusim PUBLIC pmurt_internal)
