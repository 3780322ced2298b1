# Driver of tools.test_summary (see test_summary.cmake), run with `cmake -P`. Inputs:
# GMS_SOURCE_DIR (the source tree) and GMS_WORK_DIR (scratch, recreated). The JUnit file comes
# from the ctest that runs the suite, so a change in its format shows here first.
file(REMOVE_RECURSE ${GMS_WORK_DIR})
file(MAKE_DIRECTORY ${GMS_WORK_DIR}/project ${GMS_WORK_DIR}/report)
set(report ${GMS_SOURCE_DIR}/tools/test-report.sh)

# run(EXPECTED_STATUS OUTPUT_VARIABLE COMMAND...): runs COMMAND, which must exit EXPECTED_STATUS.
function(run expected_status output_variable)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "`${ARGN}` exited with ${status}, expected ${expected_status}:\n${out}")
  endif()
  set(${output_variable} "${out}" PARENT_SCOPE)
endfunction()

file(WRITE ${GMS_WORK_DIR}/project/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.20)
project(report_fixture NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "exit 0")
add_test(NAME passes_too COMMAND sh -c "echo '<testcase status=\"fail\">'")
add_test(NAME fails COMMAND sh -c "exit 1")
add_test(NAME skips COMMAND sh -c "echo skipping; exit 77")
set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME disabled COMMAND sh -c "exit 1")
set_tests_properties(disabled PROPERTIES DISABLED ON)
add_test(NAME cannot_start COMMAND ${CMAKE_CURRENT_BINARY_DIR}/no-such-program)
]=])
run(0 out ${CMAKE_COMMAND} -S ${GMS_WORK_DIR}/project -B ${GMS_WORK_DIR}/project/build)

# Stage "normal": ctest fails (fails, cannot_start), so the stage fails and `stage` says so.
run(8 out sh ${report} stage ${GMS_WORK_DIR}/report normal
    ctest --test-dir ${GMS_WORK_DIR}/project/build --output-junit ${GMS_WORK_DIR}/report/normal.xml)
file(READ ${GMS_WORK_DIR}/report/normal.stage stage)
if(NOT stage MATCHES "^8 [0-9]+ [0-9]+\n$")
  message(FATAL_ERROR "normal.stage holds '${stage}', expected '8 WALL CPU'")
endif()
# A stage's CPU time is that of the processes it waited for: here a shell that spins until it has
# used 0.6 s of user time (field 14 of /proc/PID/stat, in 1/100 s), which rounds to 1 s.
file(WRITE ${GMS_WORK_DIR}/spin.sh [=[
while [ "$(cut -d' ' -f14 /proc/$$/stat)" -lt 60 ]; do
    i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done
done
]=])
run(0 out sh ${report} stage ${GMS_WORK_DIR}/report busy sh ${GMS_WORK_DIR}/spin.sh)
file(READ ${GMS_WORK_DIR}/report/busy.stage stage)
if(NOT stage MATCHES "^0 [0-9]+ ([0-9]+)\n$" OR CMAKE_MATCH_1 LESS 1)
  message(FATAL_ERROR "busy.stage holds '${stage}', expected '0 WALL CPU' with CPU 1 s or more")
endif()
# Stage "fuzz": succeeds without running ctest (skipped); stage "late" never ran.
run(0 out sh ${report} stage ${GMS_WORK_DIR}/report fuzz true)
# Fixed times, so the whole line can be compared.
file(WRITE ${GMS_WORK_DIR}/report/normal.stage "8 75 130\n")
file(WRITE ${GMS_WORK_DIR}/report/fuzz.stage "0 3 2\n")
run(0 line sh ${report} summary ${GMS_WORK_DIR}/report "normal=normal build+ctest"
    "fuzz=fuzz smoke" "late=late stage")
set(expected "make test: 6 tests run, 2 passed, 2 failed, 2 skipped | normal build+ctest 75 s (CPU 130 s) FAILED, fuzz smoke 3 s (CPU 2 s) skipped, late stage not run\n")
if(NOT line STREQUAL expected)
  message(FATAL_ERROR "summary line\n  ${line}expected\n  ${expected}")
endif()
message(STATUS "${line}")
