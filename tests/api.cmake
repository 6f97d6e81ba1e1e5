# The public API's growth and reuse rules (tests/api/api_test.c): event
# arrays at the caller's element size.
add_executable(api_test ${CMAKE_CURRENT_LIST_DIR}/api/api_test.c)
target_include_directories(api_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(api_test PRIVATE pmurt)
add_test(NAME api/layout COMMAND api_test)
