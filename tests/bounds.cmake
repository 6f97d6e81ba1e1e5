# Bad input has bounded cost (tests/bounds/run.sh): hostile inputs made at
# test time by gen_input, each at SIZE and 4 x SIZE bytes.
add_executable(gen_input bounds/gen_input.c)
# The cost bound (tests/bounds/run.sh): counted in instructions by valgrind
# in optimised builds (at most 1000 a byte, and linear); under the
# sanitizers, which valgrind cannot run, CPU seconds for the 4 x SIZE run,
# a bound on gross blow-ups only (-O0 with ASan runs these parsers up to 17
# times slower: a 10 MB check --batch took 8.4 s of CPU, 11.3 s once on a
# busy machine).
if(PMU_SANITIZE)
  set(BOUNDS_CPU_LIMIT 60)
else()
  set(BOUNDS_CPU_LIMIT instructions)
endif()
set(BOUNDS_CASES
  # kind        size     exit  pattern
  "flow-seq     2500000  1     sequence nested deeper than 64 levels"
  "flow-map     2500000  1     mapping nested deeper than 64 levels"
  "block-seq    2500000  1     sequence nested deeper than 64 levels"
  "top-keys     100000   1     more than 100 errors"
  "top-keys-big 2500000  1     more than 500000 YAML nodes in one file"
  "event-keys   100000   1     unknown key 'k0' in an event"
  "long-scalar  2500000  0     3 events, 5 fields, 3 constraints: ok"
  "events       100000   1     has the code 0x100f0 of event"
  "events-big   2500000  1     more than 500000 YAML nodes in one file"
  "import       1750000  0     [3-9][0-9]\\{4\\} events, 5 fields, 3 constraints: ok"
  "dtb-events   500000   3     has the code 0x100f0 of event"
  "fields       100000   1     more than 256 fields"
  "constraints  100000   1     more than 64 constraints"
  "anchors      2500000  1     YAML anchor '&a0': anchors and aliases are not part"
  "jsonl-valid  2500000  0     \"ok\":true"
  "jsonl-bad    2500000  2     more than 100 malformed lines"
  "jsonl-long   2500000  2     line longer than 65536 bytes"
  "jsonl-deep   2500000  2     maximum parsing depth")
foreach(case ${BOUNDS_CASES})
  string(REGEX MATCH "^([a-z-]+) +([0-9]+) +([0-9]) +(.*)$" _ "${case}")
  set(kind ${CMAKE_MATCH_1})
  set(size ${CMAKE_MATCH_2})
  set(want_exit ${CMAKE_MATCH_3})
  set(pattern "${CMAKE_MATCH_4}")
  string(REGEX REPLACE "-big$" "" gen_kind ${kind})
  set(limit ${BOUNDS_CPU_LIMIT})
  add_test(NAME bounds/${kind}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/bounds/run.sh $<TARGET_FILE:gen_input>
      ${PMUGEN} $<TARGET_FILE:pmutool> ${CMAKE_CURRENT_LIST_DIR}/checks/mini.yaml
      ${limit} ${gen_kind} ${size} ${want_exit} "${pattern}")
endforeach()
