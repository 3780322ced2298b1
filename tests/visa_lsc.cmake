# The LSC instructions of the vISA dialect (docs/visa.md, "LSC instructions").
#
# One diagnostics test per bad module in tests/visa/lsc_bad/ (RULE.visaasm), one for every error
# rule of the LSC block of src/visa/visa_ops.def: `gpumemsim check FILE` must exit with status 2
# and print the rule id and position that the module's first line expects
# (`// expect: RULE LINE:COL`). The driver is PTX's.
file(GLOB GMS_VISA_LSC_BAD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/visa/lsc_bad/*.visaasm)
foreach(bad ${GMS_VISA_LSC_BAD})
  get_filename_component(rule ${bad} NAME_WLE)
  add_test(NAME diag.visa.${rule}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXE=$<TARGET_FILE:gpumemsim> -DGMS_FILE=${bad}
                   -P ${CMAKE_SOURCE_DIR}/tests/ptx_bad_check.cmake)
  set_tests_properties(diag.visa.${rule} PROPERTIES LABELS diag)
endforeach()

# The one warning rule: `.system` is read as `.sysrel` (VISA-LSC-009); check exits 0.
add_test(NAME diag.visa.VISA-LSC-009
         COMMAND ${CMAKE_COMMAND} -DGMS_EXE=$<TARGET_FILE:gpumemsim>
                 -DGMS_ARGS=check -DGMS_STATUS=0
                 -DGMS_FILE=${CMAKE_SOURCE_DIR}/tests/visa/lsc_warn/VISA-LSC-009.visaasm
                 -DGMS_EXPECT=${CMAKE_SOURCE_DIR}/tests/visa/lsc_warn/VISA-LSC-009.expected
                 -P ${CMAKE_SOURCE_DIR}/tests/visa/lsc_warn_check.cmake)
set_tests_properties(diag.visa.VISA-LSC-009 PROPERTIES LABELS diag)

# The GenX_IR differential test (tests/visa/lsc_diff.sh): the verdicts of Intel's vISA assembler
# and of `gpumemsim check` on the corpus of tools/visa/lsc_corpus.py must agree except for the
# deliberate differences of tests/visa/lsc_known_differences.txt. Skipped (status 77) without
# GenX_IR or python3; GenX_IR's verdicts are kept in diff/genx-verdicts.tsv of the build folder,
# so a rerun asks it only about modules it has not seen. Label `diff`, like the ptxas ones.
add_test(NAME diff.genx.lsc
         COMMAND ${CMAKE_SOURCE_DIR}/tests/visa/lsc_diff.sh
                 ${CMAKE_SOURCE_DIR}/tools/visa/lsc_corpus.py $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/diff/genx-lsc
                 ${CMAKE_SOURCE_DIR}/tests/visa/lsc_known_differences.txt
                 ${CMAKE_BINARY_DIR}/diff/genx-verdicts.tsv)
set_tests_properties(diff.genx.lsc PROPERTIES LABELS diff SKIP_RETURN_CODE 77 TIMEOUT 3600)

# The LSC instructions run (tests/visa/lsc_run/): one SIMD16 thread's x3 vector loads, a
# write-through store, iadd/iinc/icas atomics (the winner and the old values), SLM stores and
# loads across lanes around an SLM fence, a transposed block load and store, and an evicting
# fence; every word of the buffer is compared with lsc_ops.expected.bin. Runs on the pvc preset.
add_test(NAME kernels.visa.lsc_ops
         COMMAND $<TARGET_FILE:gpumemsim> run --quiet lsc_ops.json
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/visa/lsc_run)
set_tests_properties(kernels.visa.lsc_ops PROPERTIES LABELS kernels)
