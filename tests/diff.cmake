# ptxas differential test of the cache-control instructions (PTX ISA 9.1 §9.7.9.1-2, 15-18):
# gen_cache_cases writes a few thousand one-instruction modules; run_cache_diff.sh asks ptxas and
# `gpumemsim check` about each and requires the same verdict, except the deliberate differences of
# tests/diff/cache_known_differences.txt (docs/ptxas-differences.md). Without ptxas the test is
# skipped (exit status 77).
add_executable(gen_cache_cases ${CMAKE_SOURCE_DIR}/tests/diff/gen_cache_cases.c)
add_test(NAME diff.ptxas.cache_control
         COMMAND ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 $<TARGET_FILE:gen_cache_cases> $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/diff/cache_control
                 ${CMAKE_SOURCE_DIR}/tests/diff/cache_known_differences.txt)
set_tests_properties(diff.ptxas.cache_control PROPERTIES
                     LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 900)
