# ptxas differential test of the cache-control instructions (PTX ISA 9.1 §9.7.9.1-2, 15-18):
# gen_cache_cases writes a few thousand one-instruction modules; run_cache_diff.sh asks ptxas and
# `gpumemsim check` about each and requires the same verdict, except the deliberate differences of
# tests/diff/cache_known_differences.txt (docs/ptxas-differences.md). Without ptxas the test is
# skipped (exit status 77). ptxas' verdicts are kept in diff/ptxas-verdicts.tsv of the build
# folder, keyed by ptxas version, -arch and module text, so a rerun asks ptxas only about modules
# it has not seen. Label `diff`: `make test` runs these in the normal build only, since sanitizers
# add nothing to a comparison of verdicts.
add_executable(gen_cache_cases ${CMAKE_SOURCE_DIR}/tests/diff/gen_cache_cases.c
               ${CMAKE_SOURCE_DIR}/tests/diff/gen_harness.c)
add_test(NAME diff.ptxas.cache_control
         COMMAND ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 $<TARGET_FILE:gen_cache_cases> $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/diff/cache_control
                 ${CMAKE_SOURCE_DIR}/tests/diff/cache_known_differences.txt
                 ${CMAKE_BINARY_DIR}/diff/ptxas-verdicts.tsv)
set_tests_properties(diff.ptxas.cache_control PROPERTIES
                     LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 900)

# The verdict cache itself, with a fake generator, ptxas and gpumemsim (runs without ptxas).
add_test(NAME diff.ptxas_cache
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/diff/ptxas_cache_test.sh
                 ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 ${CMAKE_BINARY_DIR}/diff/ptxas_cache_test)
set_tests_properties(diff.ptxas_cache PROPERTIES LABELS diff TIMEOUT 120)

# The same comparison for the surface instructions (PTX ISA 9.1 §9.7.10): gen_surface_cases
# enumerates suld/sust/sured/suq forms; deliberate differences in surface_known_differences.txt.
add_executable(gen_surface_cases ${CMAKE_SOURCE_DIR}/tests/diff/gen_surface_cases.c
               ${CMAKE_SOURCE_DIR}/tests/diff/gen_harness.c)
add_test(NAME diff.ptxas.surfaces
         COMMAND ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 $<TARGET_FILE:gen_surface_cases> $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/diff/surfaces
                 ${CMAKE_SOURCE_DIR}/tests/diff/surface_known_differences.txt
                 ${CMAKE_BINARY_DIR}/diff/ptxas-verdicts.tsv)
set_tests_properties(diff.ptxas.surfaces PROPERTIES
                     LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 900)
# The same comparison for the texture instructions (tex, tld4, txq): gen_texture_cases
# enumerates their forms; deliberate differences in texture_known_differences.txt.
add_executable(gen_texture_cases ${CMAKE_SOURCE_DIR}/tests/diff/gen_texture_cases.c
               ${CMAKE_SOURCE_DIR}/tests/diff/gen_harness.c)
add_test(NAME diff.ptxas.textures
         COMMAND ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 $<TARGET_FILE:gen_texture_cases> $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/diff/textures
                 ${CMAKE_SOURCE_DIR}/tests/diff/texture_known_differences.txt
                 ${CMAKE_BINARY_DIR}/diff/ptxas-verdicts.tsv)
set_tests_properties(diff.ptxas.textures PROPERTIES
                     LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 900)
# The same comparison for the instruction forms of issue 15 item 1 (.sync anywhere among the
# modifiers of vote/shfl/match/redux, .ftz on f64 rcp/rsqrt, .pred logic with immediates):
# gen_form_cases; deliberate differences in form_known_differences.txt.
add_executable(gen_form_cases ${CMAKE_SOURCE_DIR}/tests/diff/gen_form_cases.c
               ${CMAKE_SOURCE_DIR}/tests/diff/gen_harness.c)
add_test(NAME diff.ptxas.forms
         COMMAND ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 $<TARGET_FILE:gen_form_cases> $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/diff/forms
                 ${CMAKE_SOURCE_DIR}/tests/diff/form_known_differences.txt
                 ${CMAKE_BINARY_DIR}/diff/ptxas-verdicts.tsv)
set_tests_properties(diff.ptxas.forms PROPERTIES
                     LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 900)
