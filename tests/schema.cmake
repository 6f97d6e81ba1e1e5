# JSON Schema for editors (schema/pmu-description.schema.json): it accepts the
# real descriptions and the fixture under tests/schema/valid/, and rejects
# every tests/schema/invalid/*.yaml with the message its '# schema:' comment
# names.  Each test also runs `pmugen --check` on the same file, so the schema
# and the loader are seen to agree (accept, or reject with '# pmugen:').
# Needs Debian's python3-yaml and python3-jsonschema, hence /usr/bin/python3
# (a pyenv python3 on PATH lacks them); a missing module fails the test with
# a message naming the package (.ci/install-deps installs both).
set(PMU_SYSTEM_PYTHON3 /usr/bin/python3 CACHE FILEPATH
    "Python 3 with the yaml and jsonschema modules (Debian python3-yaml, python3-jsonschema)")
set(SCHEMA_VALIDATE ${PMU_SYSTEM_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/schema/validate_yaml.py
    --schema ${CMAKE_SOURCE_DIR}/schema/pmu-description.schema.json)
if(NOT EXISTS ${PMU_SYSTEM_PYTHON3})
  # every schema test still runs, and fails saying what to install (no ";":
  # CMake would split the list there)
  set(SCHEMA_VALIDATE sh -c "echo '${PMU_SYSTEM_PYTHON3} not found: install the Debian packages python3-yaml and python3-jsonschema (.ci/install-deps)' >&2 && false" no-python)
endif()
set(SCHEMA_CASES ${CMAKE_CURRENT_LIST_DIR}/schema)

# (a) the real descriptions: power10.yaml with what it includes, and the
#     events-only file on its own (a fragment: format + events).
add_test(NAME schema/power10
  COMMAND ${SCHEMA_VALIDATE} --pmugen ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power10.yaml)
add_test(NAME schema/power10-events
  COMMAND ${SCHEMA_VALIDATE} --fragment ${CMAKE_SOURCE_DIR}/pmus/power10-events.yaml)
add_test(NAME schema/power9
  COMMAND ${SCHEMA_VALIDATE} --pmugen ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power9.yaml)
add_test(NAME schema/power9-events
  COMMAND ${SCHEMA_VALIDATE} --fragment ${CMAKE_SOURCE_DIR}/pmus/power9-events.yaml)
add_test(NAME schema/power8
  COMMAND ${SCHEMA_VALIDATE} --pmugen ${PMUGEN} ${CMAKE_SOURCE_DIR}/pmus/power8.yaml)
add_test(NAME schema/power8-events
  COMMAND ${SCHEMA_VALIDATE} --fragment ${CMAKE_SOURCE_DIR}/pmus/power8-events.yaml)

# (b) a small description using every section and spelling both accept.
add_test(NAME schema/valid-minimal
  COMMAND ${SCHEMA_VALIDATE} --pmugen ${PMUGEN} ${SCHEMA_CASES}/valid/minimal.yaml)

# (c) broken descriptions: one test per tests/schema/invalid/<case>.yaml.
file(GLOB schema_invalid ${SCHEMA_CASES}/invalid/*.yaml)
pmu_require_files(schema_invalid "tests/schema/invalid/*.yaml")
list(SORT schema_invalid)
foreach(case ${schema_invalid})
  get_filename_component(case_name ${case} NAME_WE)
  add_test(NAME schema/reject-${case_name}
    COMMAND ${SCHEMA_VALIDATE} --expect-invalid --pmugen ${PMUGEN} ${case})
endforeach()

# (d) the threshold transform's old name, thresh-cmp-p10, is a deprecated
#     alias of mantissa-exponent: minimal.yaml with it is still accepted by
#     both (pmugen warns).  The DTB side: binding/old-transform-name.
add_test(NAME schema/valid-old-transform-name
  COMMAND sh -c "d=$1 src=$2 pmugen=$3; shift 3; mkdir -p \"$d\" && cp \"$src/base.yaml\" \"$d/\" &&
                 sed 's/transform: mantissa-exponent$/transform: thresh-cmp-p10/' \"$src/minimal.yaml\" >\"$d/minimal.yaml\" &&
                 test \"$(grep -c 'transform: thresh-cmp-p10$' \"$d/minimal.yaml\")\" = 2 &&
                 \"$@\" --pmugen \"$pmugen\" \"$d/minimal.yaml\"" sh
    ${CMAKE_CURRENT_BINARY_DIR}/schema-old-name ${SCHEMA_CASES}/valid ${PMUGEN} ${SCHEMA_VALIDATE})
