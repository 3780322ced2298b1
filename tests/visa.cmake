# Tests of the vISA front-end (docs/visa.md):
# - diag.visa.RULE: one failing module per rule in tests/visa_bad/ (first line
#   `// expect: RULE LINE:COL`; the driver is tests/ptx_bad_check.cmake);
# - golden.ir.visa_NAME: the IR listing of each hand-written module in tests/visa/good/,
#   compared with tests/golden/ir/visa_NAME.ir (GMS_UPDATE_GOLDEN=1 rewrites it);
# - diff.visa.genx.NAME: Intel's assembler GenX_IR accepts each module of tests/visa/good/ and
#   each committed IGC dump under tests/visa/ocl/ (skipped, status 77, without GenX_IR).
file(GLOB GMS_VISA_BAD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/visa_bad/*.visaasm)
foreach(bad ${GMS_VISA_BAD})
  get_filename_component(rule ${bad} NAME_WLE)
  add_test(NAME diag.visa.${rule}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXE=$<TARGET_FILE:gpumemsim> -DGMS_FILE=${bad}
                   -P ${CMAKE_SOURCE_DIR}/tests/ptx_bad_check.cmake)
  set_tests_properties(diag.visa.${rule} PROPERTIES LABELS diag)
endforeach()
file(GLOB GMS_VISA_GOOD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/visa/good/*.visaasm)
foreach(good ${GMS_VISA_GOOD})
  get_filename_component(name ${good} NAME_WE)
  get_filename_component(fname ${good} NAME)
  add_test(NAME golden.ir.visa_${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/ir_golden.sh $<TARGET_FILE:gpumemsim>
                   tests/visa/good/${fname}
                   ${CMAKE_SOURCE_DIR}/tests/golden/ir/visa_${name}.ir
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(golden.ir.visa_${name} PROPERTIES LABELS "ir;golden" TIMEOUT 60)
endforeach()
file(GLOB GMS_VISA_OCL CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/visa/ocl/*/*.visaasm)
foreach(module ${GMS_VISA_GOOD} ${GMS_VISA_OCL})
  get_filename_component(name ${module} NAME)
  string(REPLACE "." "_" name ${name})
  add_test(NAME diff.visa.genx.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/visa/genx_accepts.sh ${module})
  set_tests_properties(diff.visa.genx.${name} PROPERTIES LABELS diff SKIP_RETURN_CODE 77
                       TIMEOUT 60)
endforeach()
# - run.visa.NAME: each launch file under tests/visa/run/ runs and meets its expectations (the
#   ND-range form, narrow warps, the thread payload, svm_atomic, madw, addc, cmp and sel;
#   crosslane: shuffled source and destination regions and _NM lanes across a divergent branch).
file(GLOB GMS_VISA_RUN CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/visa/run/*/*.json)
foreach(launch ${GMS_VISA_RUN})
  get_filename_component(name ${launch} NAME_WE)
  get_filename_component(dir ${launch} DIRECTORY)
  add_test(NAME run.visa.${name} COMMAND $<TARGET_FILE:gpumemsim> run ${launch}
           WORKING_DIRECTORY ${dir})
  set_tests_properties(run.visa.${name} PROPERTIES LABELS kernels TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "expectation [a-z_]+: [0-9]+ elements match"
                       FAIL_REGULAR_EXPRESSION "mismatch|error")
endforeach()
# - run.visa.ocl.NAME.DEVICE: the OpenCL C kernels IGC compiled (tests/visa/ocl/), run with
#   their launch files against the outputs of the C reference (tests/visa/ocl_run.sh).
#   `atomics` and `counter` exercise cross-lane regions and no-mask lanes (IGC's aggregation of
#   atomics on one address), `int64` a two-lane no-mask move of a uniform 64-bit seed
#   (docs/visa.md, "Execution model").
# - run.visa.reference: the C reference rebuilds every committed .expected.bin identically.
file(GLOB GMS_VISA_OCL_RUN CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/visa/ocl/*/*.json)
foreach(launch ${GMS_VISA_OCL_RUN})
  get_filename_component(name ${launch} NAME_WLE)
  add_test(NAME run.visa.ocl.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/visa/ocl_run.sh $<TARGET_FILE:gpumemsim> ${launch})
  set_tests_properties(run.visa.ocl.${name} PROPERTIES LABELS kernels TIMEOUT 120)
endforeach()
add_executable(visa_reference ${CMAKE_SOURCE_DIR}/tests/visa/ocl/reference.c)
add_test(NAME run.visa.reference
         COMMAND sh -c "rm -rf ref && mkdir ref && cd ref && for k in ${CMAKE_SOURCE_DIR}/tests/visa/ocl/*/; do mkdir -p $(basename $k); done && $<TARGET_FILE:visa_reference> . && for f in */*.bin; do cmp $f ${CMAKE_SOURCE_DIR}/tests/visa/ocl/$f || exit 1; done"
         WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
set_tests_properties(run.visa.reference PROPERTIES LABELS kernels)
