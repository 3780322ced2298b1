# Twin kernels (tests/twins/README.md), labelled `twins`: kernels that exist as CUDA (committed nvcc
# PTX) and as a hand-translated SASS module. For each folder tests/twins/<name>/:
#  - twin.<name>.ptx runs <name>.ptx.json through tests/kernels/run_kernel.sh (the values);
#  - twin.<name> runs <name>.check with tests/hints/hints_check: both modules, identical values
#    and identical data-memory counters. Its check file starts with `require-dialect sass`, so
#    ctest reports it as skipped (exit 77) while the simulator has no SASS dialect.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/twins)
file(GLOB GMS_TWIN_CHECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/twins/*/*.check)
foreach(check ${GMS_TWIN_CHECKS})
  get_filename_component(twin_dir ${check} DIRECTORY)
  get_filename_component(twin ${check} NAME_WE)
  add_test(NAME twin.${twin}.ptx
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/kernels/run_kernel.sh $<TARGET_FILE:gpumemsim>
                   ${twin}.ptx.json "" 0
           WORKING_DIRECTORY ${twin_dir})
  add_test(NAME twin.${twin}
           COMMAND hints_check $<TARGET_FILE:gpumemsim> ${check} ${CMAKE_BINARY_DIR}/twins
           WORKING_DIRECTORY ${twin_dir})
  set_tests_properties(twin.${twin}.ptx PROPERTIES LABELS twins TIMEOUT 60)
  set_tests_properties(twin.${twin} PROPERTIES LABELS twins TIMEOUT 120 SKIP_RETURN_CODE 77)
endforeach()
