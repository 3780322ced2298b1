# Driver of the control-code validation (tests/timing_ctrl.cmake; docs/timing.md, "Control
# codes"): runs tests/timing_ctrl/stalls_<variant>_<n>.json with timing on, reads the cycles of
# each launch from the JSON report (launches[0].timing.cycles) and checks the differences that the
# stall counts imply, exactly:
#   - per variant, n = 200 against n = 100: 100 more iterations of the loop body, whose stalls add
#     up to 9 (one), 26 (min) and 53 (long) cycles;
#   - at n = 100, min and long against one: 100 x (26 - 9) and 100 x (53 - 9) cycles.
# Everything outside the loop (the prologue, the store, the instruction fetches) is the same code
# with the same controls in the three kernels, so it cancels.
# Arguments: -DGMS_BIN=gpumemsim -DGMS_DIR=tests/timing_ctrl -DGMS_OUT=<scratch folder>
set(body_one 9)
set(body_min 26)
set(body_long 53)
file(MAKE_DIRECTORY ${GMS_OUT})
foreach(variant one min long)
  foreach(n 100 200)
    set(report ${GMS_OUT}/stalls_${variant}_${n}.report.json)
    execute_process(COMMAND ${GMS_BIN} run ${GMS_DIR}/stalls_${variant}_${n}.json --quiet
                            --json ${report}
                    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "stalls_${variant}_${n}: exit ${status}\n${out}${err}")
    endif()
    file(READ ${report} json)
    string(JSON cycles ERROR_VARIABLE json_error GET "${json}" launches 0 timing cycles)
    if(json_error)
      message(FATAL_ERROR "stalls_${variant}_${n}: no launches[0].timing.cycles: ${json_error}")
    endif()
    set(cycles_${variant}_${n} ${cycles})
    message(STATUS "stalls_${variant}_${n}: ${cycles} cycles")
  endforeach()
endforeach()

set(failed 0)
function(expect_difference what got want)
  if(NOT got EQUAL want)
    message(SEND_ERROR "${what}: ${got} cycles, the control codes imply ${want}")
  else()
    message(STATUS "${what}: ${got} cycles, as the control codes imply")
  endif()
endfunction()
foreach(variant one min long)
  math(EXPR got "${cycles_${variant}_200} - ${cycles_${variant}_100}")
  math(EXPR want "100 * ${body_${variant}}")
  expect_difference("${variant}: 100 more iterations" ${got} ${want})
endforeach()
foreach(variant min long)
  math(EXPR got "${cycles_${variant}_100} - ${cycles_one_100}")
  math(EXPR want "100 * (${body_${variant}} - ${body_one})")
  expect_difference("${variant} against one at n = 100" ${got} ${want})
endforeach()
