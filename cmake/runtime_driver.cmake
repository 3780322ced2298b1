# The CUDA driver API replacement (docs/cuda-runtime.md, "Driver API"): libcuda.so.1, built from
# src/runtime/cuda_driver*.c over libgpumemsim_rt.so (runtime_cudart.cmake's gms_rt, included
# before this file), into the same <build>/runtime/ folder; unversioned symbols, as the real one.
if(TARGET gms_rt)
  file(GLOB GMS_DRIVER_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/cuda_driver*.c)
  set(map ${CMAKE_SOURCE_DIR}/src/runtime/libcuda.map)
  add_library(cuda_driver SHARED ${GMS_DRIVER_SOURCES})
  target_link_libraries(cuda_driver PRIVATE gms_rt ${CMAKE_DL_LIBS})
  target_compile_options(cuda_driver PRIVATE -fvisibility=hidden)
  target_link_options(cuda_driver PRIVATE -Wl,--version-script=${map} -Wl,-soname,libcuda.so.1
                      -Wl,--no-undefined)
  set_target_properties(cuda_driver PROPERTIES OUTPUT_NAME cuda SUFFIX .so.1
                        LIBRARY_OUTPUT_DIRECTORY ${GMS_RUNTIME_DIR}
                        BUILD_RPATH "$ORIGIN" INSTALL_RPATH "$ORIGIN" LINK_DEPENDS ${map})

  # The unit test: every entry of cuda_driver_entries.def, and the driver path on PTX text,
  # without nvcc.
  add_executable(test_cuda_driver ${CMAKE_SOURCE_DIR}/tests/driver/test_cuda_driver.c)
  target_link_libraries(test_cuda_driver PRIVATE cuda_driver gms_rt PkgConfig::CMOCKA
                        ${CMAKE_DL_LIBS})
  target_compile_definitions(test_cuda_driver PRIVATE GMS_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  add_test(NAME unit.test_cuda_driver COMMAND test_cuda_driver)
  set_tests_properties(unit.test_cuda_driver PROPERTIES LABELS unit
                       ENVIRONMENT "GPUMEMSIM_QUIET=1;GPUMEMSIM_GPU=h100")

  # The nvcc-built driver-API program (tests/runtime/driver_ptx.cu): skipped (77) without nvcc.
  add_test(NAME runtime.driver_ptx
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/runtime/driver_ptx.sh ${CMAKE_SOURCE_DIR}
                   ${GMS_RUNTIME_DIR} ${CMAKE_BINARY_DIR}/driver_ptx ${CMAKE_COMMAND})
  set_tests_properties(runtime.driver_ptx PROPERTIES LABELS runtime SKIP_RETURN_CODE 77
                       TIMEOUT 300)
endif()
