# dt-schema binding tests (schema/ibm,power-pmu*.yaml, validate/dt-validate.sh):
# the binding passes dt-doc-validate and its examples validate; pmugen's trees
# (firmware set and --all-events, DTB and DTS) validate with zero reports;
# each tests/binding/*.sed edit of pmugen's DTS is rejected with its expected
# message; skiboot's reference tree gives exactly the reports in
# tests/binding/skiboot.expected.  Needs dtc and dt-schema (Debian packages
# device-tree-compiler and dt-schema, installed by .ci/install-deps): without
# them every test here fails, and dt-validate.sh names the packages.
set(BINDING_RUN sh ${CMAKE_CURRENT_LIST_DIR}/binding/run.sh)
set(BINDING_YAML ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)

# (a) dt-doc-validate on both schema files, dt-mk-schema, and the examples
# (dt-doc-validate does not check those against the schema).
add_test(NAME binding/doc-validate
  COMMAND sh ${CMAKE_SOURCE_DIR}/validate/dt-validate.sh)

# (b) pmugen's output, DTB and DTS, default firmware set and every event.
add_test(NAME binding/power10-firmware
  COMMAND ${BINDING_RUN} valid ${PMUGEN} ${BINDING_YAML})
add_test(NAME binding/power10-all-events
  COMMAND ${BINDING_RUN} valid ${PMUGEN} ${BINDING_YAML} --all-events)
set(BINDING_P9_YAML ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)
add_test(NAME binding/power9-firmware
  COMMAND ${BINDING_RUN} valid ${PMUGEN} ${BINDING_P9_YAML})
add_test(NAME binding/power9-all-events
  COMMAND ${BINDING_RUN} valid ${PMUGEN} ${BINDING_P9_YAML} --all-events)
set(BINDING_P8_YAML ${CMAKE_SOURCE_DIR}/pmus/power8.yaml)
add_test(NAME binding/power8-firmware
  COMMAND ${BINDING_RUN} valid ${PMUGEN} ${BINDING_P8_YAML})
add_test(NAME binding/power8-all-events
  COMMAND ${BINDING_RUN} valid ${PMUGEN} ${BINDING_P8_YAML} --all-events)

# The generated DTS files checked in under dts/ (CI also checks they are
# current): each must validate too.
file(GLOB binding_checked_in ${CMAKE_SOURCE_DIR}/dts/*.dts)
pmu_require_files(binding_checked_in "${CMAKE_SOURCE_DIR}/dts/*.dts")
foreach(dts ${binding_checked_in})
  get_filename_component(dts_name ${dts} NAME_WE)
  add_test(NAME binding/dts-${dts_name}
    COMMAND sh ${CMAKE_SOURCE_DIR}/validate/dt-validate.sh -n ${dts})
endforeach()

# (c) broken trees: one test per tests/binding/<case>.sed.
file(GLOB binding_cases ${CMAKE_CURRENT_LIST_DIR}/binding/*.sed)
pmu_require_files(binding_cases "tests/binding/*.sed")
list(SORT binding_cases)
foreach(case ${binding_cases})
  get_filename_component(case_name ${case} NAME_WE)
  add_test(NAME binding/reject-${case_name}
    COMMAND ${BINDING_RUN} reject ${PMUGEN} ${BINDING_YAML} ${case})
endforeach()

# (c') broken POWER9 trees: the revision-selected refused codes, the group
#      rule and the flag value, edited out of pmugen's power9 tree.
file(GLOB binding_p9_cases ${CMAKE_CURRENT_LIST_DIR}/binding/power9/*.sed)
pmu_require_files(binding_p9_cases "tests/binding/power9/*.sed")
list(SORT binding_p9_cases)
foreach(case ${binding_p9_cases})
  get_filename_component(case_name ${case} NAME_WE)
  add_test(NAME binding/reject-power9-${case_name}
    COMMAND ${BINDING_RUN} reject ${PMUGEN} ${BINDING_P9_YAML} ${case})
endforeach()

# (c'') broken POWER8 trees: the code class and a perf event's alias-of.
file(GLOB binding_p8_cases ${CMAKE_CURRENT_LIST_DIR}/binding/power8/*.sed)
pmu_require_files(binding_p8_cases "tests/binding/power8/*.sed")
list(SORT binding_p8_cases)
foreach(case ${binding_p8_cases})
  get_filename_component(case_name ${case} NAME_WE)
  add_test(NAME binding/reject-power8-${case_name}
    COMMAND ${BINDING_RUN} reject ${PMUGEN} ${BINDING_P8_YAML} ${case})
endforeach()

# (d) skiboot's tree (a transcription of pmu_init()): what differs is pinned.
add_test(NAME binding/skiboot-reference
  COMMAND ${BINDING_RUN} golden ${TESTDATA}/skiboot/skiboot-power10-pmu.dts
          ${CMAKE_CURRENT_LIST_DIR}/binding/skiboot.expected)

# The threshold transform's old name, thresh-cmp-p10, in pmugen's tree is a
# deprecated alias the binding still accepts (the loader warns: dt-old-layout).
add_test(NAME binding/old-transform-name
  COMMAND sh -c "mkdir -p \"$(dirname \"$1\")\" && sed 's/\"mantissa-exponent\";/\"thresh-cmp-p10\";/' \"$0\" >\"$1\" &&
                 test \"$(grep -c '\"thresh-cmp-p10\";' \"$1\")\" = 2 && sh \"$2\" -n \"$1\""
    ${CMAKE_SOURCE_DIR}/dts/power10.dts ${CMAKE_CURRENT_BINARY_DIR}/binding-old-name/power10.dts
    ${CMAKE_SOURCE_DIR}/validate/dt-validate.sh)
