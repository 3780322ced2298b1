# Tests of the public C API beyond its unit test (tests/unit/test_api.c), labelled `api`: the
# example program examples/api/api_saxpy.c runs and prints the exact counters of the saxpy launch
# file (examples/saxpy/saxpy.json has the same buffers and grid), and the programs that promise
# to use the public headers alone include nothing else of the library.
add_test(NAME api.example
         COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=0
                 "-DGMS_STDOUT=^saxpy of 4096 elements on h100: 0 wrong\nwarp instructions 2560\nL1 sectors 1536: 512 hits, 1024 misses\nL2 sectors 1536: 512 hits, 1024 misses\n$"
                 "-DGMS_STDERR=^$"
                 -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:api_saxpy>
                 ${CMAKE_SOURCE_DIR}/examples/saxpy/saxpy.ptx)
# A module that cannot be read: the diagnostic of the library, printed by the program, exit 1.
add_test(NAME api.example_missing_module
         COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=1 "-DGMS_STDOUT=^$"
                 "-DGMS_STDERR=^no_such\\.ptx: error: cannot open: No such file or directory \\[SIM-IO-001\\]\napi_saxpy: loading the module: GMS_ERR_IO\n$"
                 -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:api_saxpy>
                 no_such.ptx)
add_test(NAME api.public_headers_only
         COMMAND ${CMAKE_COMMAND} -DGMS_ROOT=${CMAKE_SOURCE_DIR}
                 -P ${CMAKE_SOURCE_DIR}/tests/api_includes_check.cmake)
set_tests_properties(api.example api.example_missing_module api.public_headers_only
                     PROPERTIES LABELS api TIMEOUT 60)
