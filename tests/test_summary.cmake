# The summary line of `make test` (tools/test-report.sh), labelled `tools`: the driver
# tests/test_summary_check.cmake runs ctest on a small project whose tests pass, fail, skip (exit
# status 77), are disabled and cannot start, and requires the exact counts and stage times; a
# stage that spins on the CPU must report CPU time.
add_test(NAME tools.test_summary
         COMMAND ${CMAKE_COMMAND} -DGMS_SOURCE_DIR=${CMAKE_SOURCE_DIR}
                 -DGMS_WORK_DIR=${CMAKE_BINARY_DIR}/tools.test_summary
                 -P ${CMAKE_SOURCE_DIR}/tests/test_summary_check.cmake)
set_tests_properties(tools.test_summary PROPERTIES LABELS tools TIMEOUT 120)
