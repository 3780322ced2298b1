# Unmodified CUDA programs under `gpumemsim exec` (docs/cuda-runtime.md), labelled `runtime`:
# each tests/runtime/<name>.check is one test, runtime.<name>, run by the driver of the hint
# tests (tests/hints/hints_check.c). Its `build` lines compile project-written programs
# (tests/runtime/*.cu) with `nvcc -cudart shared`; its `exec` lines run them under
# `gpumemsim exec --json`, where each must exit with the status given (0: it checked its own
# results), and its `check` and `output` lines test the report's counters and the output. Where
# nvcc is absent the test is skipped (exit status 77). The programs need the runtime libraries
# in build/<preset>/runtime/ (cmake/runtime_*.cmake).
set(GMS_RUNTIME_TEST_DIR ${CMAKE_BINARY_DIR}/runtime-tests)
file(MAKE_DIRECTORY ${GMS_RUNTIME_TEST_DIR})
# In a sanitizer build the runtime libraries need the sanitizer's runtime loaded first, which a
# program from nvcc does not do: it is preloaded into the programs (not into nvcc).
set(GMS_RUNTIME_TEST_ENV "")
if(GMS_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE asan_library OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(GMS_RUNTIME_TEST_ENV "GMS_RUNTIME_PRELOAD=${asan_library}")
endif()
file(GLOB GMS_RUNTIME_CHECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/runtime/*.check)
foreach(check ${GMS_RUNTIME_CHECKS})
  get_filename_component(check_name ${check} NAME_WE)
  add_test(NAME runtime.${check_name}
           COMMAND hints_check $<TARGET_FILE:gpumemsim> ${check} ${GMS_RUNTIME_TEST_DIR}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/runtime)
  set_tests_properties(runtime.${check_name} PROPERTIES LABELS runtime TIMEOUT 600
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${GMS_RUNTIME_TEST_ENV}")
endforeach()
