# End-to-end kernel tests: one ctest per launch file tests/kernels/<name>/*.json (the sm_80 and the
# sm_90 variant), named kernel.<file stem>, labelled `kernels`. Each runs
# `gpumemsim run <launch file>` in the kernel's folder through tests/kernels/run_kernel.sh, which
# checks the exit status, the printf output against expected_stdout.txt when the folder has one,
# and, for fault tests, the patterns of expected_fault.txt (first line: the exit status; each
# further line: an extended regex the output must match). Each line of expected_output.txt, when
# the folder has one, is a further regex (for the report around the printf output).
# kernel.* run the functional scheduler (--no-timing: their patterns may pin counters); each
# launch file runs again as kernel_timing.<stem> under the timing model, with the same checks of
# values, printf output and faults (not expected_output.txt's report counters), and as kernel_timing_determinism.<stem>, whose two runs must
# write byte-identical JSON statistics (cycles included).
file(GLOB GMS_KERNEL_LAUNCH_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/kernels/*/*.json)
foreach(launch_file ${GMS_KERNEL_LAUNCH_FILES})
  get_filename_component(kernel_dir ${launch_file} DIRECTORY)
  get_filename_component(launch_name ${launch_file} NAME)
  string(REGEX REPLACE "\\.json$" "" launch_stem ${launch_name})

  set(expected_stdout "")
  if(EXISTS ${kernel_dir}/expected_stdout.txt)
    set(expected_stdout ${kernel_dir}/expected_stdout.txt)
  endif()
  set(expected_exit 0)
  set(patterns "")
  if(EXISTS ${kernel_dir}/expected_fault.txt)
    file(STRINGS ${kernel_dir}/expected_fault.txt fault_lines)
    list(POP_FRONT fault_lines expected_exit)
    set(patterns ${fault_lines})
  endif()
  set(timing_patterns ${patterns}) # the report's counters (expected_output.txt) are functional
  if(EXISTS ${kernel_dir}/expected_output.txt)
    file(STRINGS ${kernel_dir}/expected_output.txt output_lines)
    list(APPEND patterns ${output_lines})
  endif()

  add_test(NAME kernel.${launch_stem}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/kernels/run_kernel.sh $<TARGET_FILE:gpumemsim>
                   ${launch_name} "${expected_stdout}" ${expected_exit} ${patterns}
           WORKING_DIRECTORY ${kernel_dir})
  # Exit status 77: the launch file has an "images" or "textures" section the simulator does not
  # read yet.
  set_tests_properties(kernel.${launch_stem} PROPERTIES LABELS kernels TIMEOUT 60
                       SKIP_RETURN_CODE 77 ENVIRONMENT GMS_RUN_OPTIONS=--no-timing)
  add_test(NAME kernel_timing.${launch_stem}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/kernels/run_kernel.sh $<TARGET_FILE:gpumemsim>
                   ${launch_name} "${expected_stdout}" ${expected_exit} ${timing_patterns}
           WORKING_DIRECTORY ${kernel_dir})
  set_tests_properties(kernel_timing.${launch_stem} PROPERTIES LABELS "kernels;timing"
                       TIMEOUT 60 SKIP_RETURN_CODE 77)
  add_test(NAME kernel_timing_determinism.${launch_stem}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/kernels/run_twice.sh $<TARGET_FILE:gpumemsim>
                   ${launch_name} ${expected_exit}
           WORKING_DIRECTORY ${kernel_dir})
  set_tests_properties(kernel_timing_determinism.${launch_stem} PROPERTIES
                       LABELS "kernels;timing" TIMEOUT 60 SKIP_RETURN_CODE 77)
endforeach()
