# ptxas differential test of the cache-control instructions (PTX ISA 9.1 §9.7.9.1-2, 15-18):
# gen_cache_cases writes a few thousand one-instruction modules; run_cache_diff.sh asks ptxas and
# `gpumemsim check` about each and requires the same verdict, except the deliberate differences of
# tests/diff/cache_known_differences.txt (docs/ptxas-differences.md). Without ptxas the test is
# skipped (exit status 77). ptxas' verdicts are kept in diff/ptxas-verdicts.tsv of the build
# folder, keyed by ptxas version, -arch and module text, so a rerun asks ptxas only about modules
# it has not seen. Label `diff`: `make test` runs these in the normal build only, since sanitizers
# add nothing to a comparison of verdicts.
#
# ptxas_differential(NAME GENERATOR KNOWN): builds tests/diff/GENERATOR.c with the shared harness
# and adds the test diff.ptxas.NAME comparing its modules, with the deliberate differences listed
# in tests/diff/KNOWN.
function(ptxas_differential name generator known)
  add_executable(${generator} ${CMAKE_SOURCE_DIR}/tests/diff/${generator}.c
                 ${CMAKE_SOURCE_DIR}/tests/diff/gen_harness.c)
  add_test(NAME diff.ptxas.${name}
           COMMAND ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                   $<TARGET_FILE:${generator}> $<TARGET_FILE:gpumemsim>
                   ${CMAKE_BINARY_DIR}/diff/${name}
                   ${CMAKE_SOURCE_DIR}/tests/diff/${known}
                   ${CMAKE_BINARY_DIR}/diff/ptxas-verdicts.tsv)
  set_tests_properties(diff.ptxas.${name} PROPERTIES
                       LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 900)
endfunction()

ptxas_differential(cache_control gen_cache_cases cache_known_differences.txt)
# The surface instructions (PTX ISA 9.1 §9.7.10): suld/sust/sured/suq forms.
ptxas_differential(surfaces gen_surface_cases surface_known_differences.txt)
# The texture instructions: tex, tld4, txq forms.
ptxas_differential(textures gen_texture_cases texture_known_differences.txt)
# The instruction forms of issue 15 item 1 (.sync anywhere among the modifiers of
# vote/shfl/match/redux, .ftz on f64 rcp/rsqrt, .pred logic with immediates).
ptxas_differential(forms gen_form_cases form_known_differences.txt)
# The matrix instructions (PTX ISA 9.1 §9.7.14): ldmatrix, stmatrix, mma.sync, wmma.
ptxas_differential(matrix gen_matrix_cases matrix_known_differences.txt)
# The mbarrier family and fence.mbarrier_init: forms, orderings, operands, versions and targets.
ptxas_differential(mbarrier gen_mbarrier_cases mbarrier_known_differences.txt)
# The asynchronous copies (issue 15 item 2): cp.async, cp.async.commit_group, cp.async.wait_group,
# cp.async.wait_all.
ptxas_differential(async gen_async_cases async_known_differences.txt)
# The bulk copies (cp.async.bulk*, cp.reduce.async.bulk*, fence.proxy) of issue 15.
ptxas_differential(bulk gen_bulk_cases bulk_known_differences.txt)
# The video instructions (scalar and SIMD vadd ... vset) of issue 15's second round.
ptxas_differential(video gen_video_cases video_known_differences.txt)

# The verdict cache itself, with a fake generator, ptxas and gpumemsim (runs without ptxas).
add_test(NAME diff.ptxas_cache
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/diff/ptxas_cache_test.sh
                 ${CMAKE_SOURCE_DIR}/tests/diff/run_cache_diff.sh
                 ${CMAKE_BINARY_DIR}/diff/ptxas_cache_test)
set_tests_properties(diff.ptxas_cache PROPERTIES LABELS diff TIMEOUT 120)
