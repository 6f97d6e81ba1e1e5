# mantissa-exponent with a toy PMU's parameters (tests/encoding/toy-thresh.yaml):
# another encoding needs only the description.  encoding_test checks
# hand-computed encodings from the YAML and from the DTB pmugen writes of it;
# dt_roundtrip checks that YAML -> DTB -> model keeps the parameters.
set(ENCODING_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/encoding)
set(ENCODING_TOY ${ENCODING_TESTS}/toy-thresh.yaml)
set(ENCODING_DTB ${CMAKE_CURRENT_BINARY_DIR}/toy-thresh.dtb)
add_executable(encoding_test ${ENCODING_TESTS}/encoding_test.c)
target_include_directories(encoding_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/runtime
  ${CMAKE_SOURCE_DIR}/model ${CMAKE_SOURCE_DIR}/tables ${CMAKE_SOURCE_DIR}/validate)
target_link_libraries(encoding_test PRIVATE pmurt_internal PkgConfig::YAML PkgConfig::FDT)
add_test(NAME encoding/toy-dtb COMMAND ${PMUGEN} -q -f dtb -o ${ENCODING_DTB} ${ENCODING_TOY})
set_tests_properties(encoding/toy-dtb PROPERTIES FIXTURES_SETUP encoding_toy_dtb)
add_test(NAME encoding/toy-values COMMAND encoding_test ${ENCODING_TOY} ${ENCODING_DTB})
set_tests_properties(encoding/toy-values PROPERTIES FIXTURES_REQUIRED encoding_toy_dtb)
add_test(NAME encoding/toy-dt-roundtrip COMMAND dt_roundtrip ${ENCODING_TOY})
# The old name thresh-cmp-p10 still reads, with a warning at each use, and
# gives the same tree and encodings as mantissa-exponent (the DTB side:
# dt-old-layout).
add_test(NAME encoding/old-name-yaml
  COMMAND sh ${ENCODING_TESTS}/old_name.sh ${PMUGEN} $<TARGET_FILE:encoding_test> ${ENCODING_TOY}
    ${CMAKE_CURRENT_BINARY_DIR}/encoding-old-name)
