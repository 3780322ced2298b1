# Driver for one tests/ptx_bad/ module (see ptx_bad.cmake). Inputs: GMS_EXE, GMS_FILE.
# The module's first line reads `// expect: RULE-ID LINE:COL`.
file(STRINGS ${GMS_FILE} first_line LIMIT_COUNT 1)
if(NOT first_line MATCHES "^// expect: ([A-Z0-9-]+) ([0-9]+):([0-9]+)")
  message(FATAL_ERROR "${GMS_FILE}: first line must be `// expect: RULE LINE:COL`")
endif()
set(rule ${CMAKE_MATCH_1})
set(position "${CMAKE_MATCH_2}:${CMAKE_MATCH_3}")
execute_process(COMMAND ${GMS_EXE} check ${GMS_FILE}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${status}:\n${all}")
endif()
string(FIND "${all}" "${GMS_FILE}:${position}:" at_position)
string(FIND "${all}" "[${rule}]" at_rule)
if(at_position EQUAL -1 OR at_rule EQUAL -1)
  message(FATAL_ERROR "expected ${GMS_FILE}:${position}: ... [${rule}], got:\n${all}")
endif()
