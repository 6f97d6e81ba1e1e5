# Out of memory reaches pmurt_pmu_open's caller as -ENOMEM, without crash or
# leak, for every allocation on a YAML, a DTB and the built-in source
# (tests/alloc/alloc_test.c), and pmurt_pack of two POWER10 metric groups likewise.
# Allocation failure is injected by the linker's --wrap in this test alone;
# libyaml is linked statically (libyaml-dev ships libyaml.a) so that its
# allocations fail in turn as well.
find_library(LIBYAML_STATIC libyaml.a)
if(NOT LIBYAML_STATIC)
  message(FATAL_ERROR "libyaml.a not found: install the Debian package libyaml-dev")
endif()
add_executable(alloc_test ${CMAKE_CURRENT_LIST_DIR}/alloc/alloc_test.c)
target_include_directories(alloc_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(alloc_test PRIVATE pmurt_internal ${LIBYAML_STATIC})
target_link_options(alloc_test PRIVATE
  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,--wrap=free
  -Wl,--wrap=yaml_parser_load)
# The YAML is pmus/power10.yaml with its included events cut to the first 20
# (every section is read; the full 680 events would take 43k loads) and
# three presets over the firmware events in place of POWER10's 40, the
# DTB is what pmugen writes from it (the full one: 6k loads, 4 minutes under
# ASan), the built-in tables are the whole POWER10 description.
add_test(NAME alloc/enomem
  COMMAND sh -c "t=$(mktemp -d \"\${TMPDIR:-/tmp}/pmurt-alloc.XXXXXX\") || exit 1
                 trap 'rm -rf \"$t\"' EXIT
                 sed '/^presets:/,$d' \"$3\" >\"$t/power10.yaml\" &&
                 printf '%s\\n' 'presets:' '  - {name: PAPI_TOT_CYC, events: [cycles]}' \\
                   '  - {name: PAPI_L1_DCM, derived: add, events: [l1-load-misses, l1-store-misses]}' \\
                   '  - {name: PAPI_STL_ICY, derived: postfix, postfix: \"N0|N1|-|\", events: [cycles, dispatch-stall-cycles]}' \\
                   >>\"$t/power10.yaml\" &&
                 head -n 84 \"$4\" >\"$t/power10-events.yaml\" &&
                 \"$1\" -q --all-events -W no-kernel-limits -f dtb -o \"$t/power10.dtb\" \"$t/power10.yaml\" &&
                 \"$2\" \"$t/power10.yaml\" \"$t/power10.dtb\" power10" sh
    ${PMUGEN} $<TARGET_FILE:alloc_test> ${CMAKE_SOURCE_DIR}/pmus/power10.yaml
    ${CMAKE_SOURCE_DIR}/pmus/power10-events.yaml)
set_tests_properties(alloc/enomem PROPERTIES
  ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/alloc/lsan.supp")

# pmutool's out-of-memory paths: pmutool built once more with the allocator
# of tests/alloc/pmutool_alloc.c (libpmurt's and libyaml's allocations
# wrapped as above, jansson's through json_set_alloc_funcs), and each
# command run with each of its allocations failing in turn
# (tests/alloc/pmutool_enomem.sh).
# pmutool's own sources, libraries and settings, read from its target
get_target_property(PMUTOOL_SOURCES pmutool SOURCES)
get_target_property(PMUTOOL_DIR pmutool SOURCE_DIR)
list(TRANSFORM PMUTOOL_SOURCES PREPEND ${PMUTOOL_DIR}/)
get_target_property(PMUTOOL_LIBS pmutool LINK_LIBRARIES)
list(REMOVE_ITEM PMUTOOL_LIBS PkgConfig::YAML) # the static one instead, after its users
add_executable(pmutool_alloc ${PMUTOOL_SOURCES} ${CMAKE_CURRENT_LIST_DIR}/alloc/pmutool_alloc.c)
target_link_libraries(pmutool_alloc PRIVATE ${PMUTOOL_LIBS} ${LIBYAML_STATIC})
target_include_directories(pmutool_alloc PRIVATE $<TARGET_PROPERTY:pmutool,INCLUDE_DIRECTORIES>)
target_compile_definitions(pmutool_alloc PRIVATE $<TARGET_PROPERTY:pmutool,COMPILE_DEFINITIONS>)
target_link_options(pmutool_alloc PRIVATE
  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,--wrap=free)
# list also walks the host's events: a small simulated LPAR's (its sysfs
# and tracefs, tests/fakesys), not the 2,000 tracepoints of this machine
set(ALLOC_SYS ${CMAKE_CURRENT_BINARY_DIR}/alloc-sys)
add_test(NAME alloc/lpar-tree
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fakesys/power10-lpar.sh ${ALLOC_SYS})
set_tests_properties(alloc/lpar-tree PROPERTIES FIXTURES_SETUP alloc_lpar)
foreach(cmd "check PM_CYC,PM_INST_CMPL:u,cycles" "check --json PM_CYC,PM_RUN_CYC"
            "--sysfs ${ALLOC_SYS} list PM_MRK_*" "--sysfs ${ALLOC_SYS} list --json PM_CYC"
            "describe PM_CYC")
  string(REPLACE " " ";" args ${cmd})
  string(REPLACE "--sysfs ${ALLOC_SYS} " "" name ${cmd})
  string(REGEX REPLACE "[^a-z]+" "-" name ${name})
  add_test(NAME alloc/pmutool-${name}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/alloc/pmutool_enomem.sh $<TARGET_FILE:pmutool_alloc> ${args})
  set_tests_properties(alloc/pmutool-${name} PROPERTIES FIXTURES_REQUIRED alloc_lpar)
endforeach()
