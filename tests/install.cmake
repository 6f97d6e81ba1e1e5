# Installing libpmurt: tests/install/install_test.sh installs the build into
# a temporary prefix and builds tests/install/consumer against it with
# find_package(pmurt) and with pkg-config; symbols_test.sh checks what
# libpmurt.so.0 exports.  Sanitized builds pass their flags to the consumer.
set(INSTALL_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/install)
set(INSTALL_CONSUMER_FLAGS "")
if(PMU_SANITIZE)
  set(INSTALL_CONSUMER_FLAGS "-fsanitize=address,undefined")
endif()

add_test(NAME install/consumer
  COMMAND sh ${INSTALL_TESTS}/install_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_INSTALL_LIBDIR}
    ${CMAKE_INSTALL_INCLUDEDIR} ${INSTALL_TESTS}/consumer ${CMAKE_C_COMPILER}
    ${CMAKE_COMMAND} "${INSTALL_CONSUMER_FLAGS}")
add_test(NAME install/symbols
  COMMAND sh ${INSTALL_TESTS}/symbols_test.sh $<TARGET_FILE:pmurt>
    ${CMAKE_SOURCE_DIR}/include/pmurt.h $<TARGET_FILE:pmurt_static>
    ${CMAKE_SOURCE_DIR}/runtime/libpmurt.map ${CMAKE_SOURCE_DIR}/include/pmurt_tool.h)
# the README's plain `cmake -S . -B build` must give an optimised build
add_test(NAME install/default-build-type
  COMMAND sh ${INSTALL_TESTS}/build_type_test.sh ${CMAKE_SOURCE_DIR} ${CMAKE_COMMAND}
    ${CMAKE_GENERATOR})
