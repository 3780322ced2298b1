# The summary line of `make test` (tools/test-report.sh), labelled `tools`: the driver
# tests/test_report_check.cmake runs ctest on a small project whose tests pass, fail, skip (exit
# status 77), are disabled and cannot start, and requires the exact counts and stage times.
add_test(NAME tools.test_report
         COMMAND ${CMAKE_COMMAND} -DGMS_SOURCE_DIR=${CMAKE_SOURCE_DIR}
                 -DGMS_WORK_DIR=${CMAKE_BINARY_DIR}/test_report
                 -P ${CMAKE_SOURCE_DIR}/tests/test_report_check.cmake)
set_tests_properties(tools.test_report PROPERTIES LABELS tools TIMEOUT 120)
