# The simulator and the command line know no front-end (DESIGN.md, "Layout"; docs/architecture.md,
# "The front-end layer"): src/sim/ and tools/gpumemsim/ include no dialect's header and call no
# dialect's functions; they choose a dialect through the registry (src/frontend/frontend.h).
add_test(NAME layering.sim_and_cli_know_no_dialect
         COMMAND ${CMAKE_COMMAND} -DGMS_SOURCE_DIR=${CMAKE_SOURCE_DIR}
                 -P ${CMAKE_SOURCE_DIR}/tests/layering_check.cmake)
set_tests_properties(layering.sim_and_cli_know_no_dialect PROPERTIES LABELS layering)
