# The CUDA runtime replacement (docs/cuda-runtime.md, "Runtime API"):
#   gms_rt      libgpumemsim_rt.so: the process's simulated GPU (src/runtime/rt_state.c and the
#               fat binary reader), shared by libcudart and libcuda
#   cudart13    libcudart.so.13, symbols at version node libcudart.so.13 (libcudart13.map)
#   cudart12    libcudart.so.12, the same library for programs built with CUDA 12
# Everything lands in <build>/runtime/, which `gpumemsim exec` puts on LD_LIBRARY_PATH; the
# libraries find libgpumemsim_rt.so beside them ($ORIGIN).
set(GMS_RUNTIME_DIR ${CMAKE_BINARY_DIR}/runtime)
# The fat binary reader is gms_fatbin (cmake/runtime_fatbin.cmake, included after this file:
# the name is resolved when CMake generates); without it there is no runtime.
if(EXISTS ${CMAKE_SOURCE_DIR}/src/runtime/fatbin.c)
  # gms_fatbin (cmake/runtime_fatbin.cmake) brings the reader and its codecs (zstd, lz4).
  add_library(gms_rt SHARED ${CMAKE_SOURCE_DIR}/src/runtime/rt_state.c
                     ${CMAKE_SOURCE_DIR}/src/runtime/rt_ptxjoin.c)
  target_link_libraries(gms_rt PUBLIC gms_pic gms_fatbin)
  target_link_options(gms_rt PRIVATE -Wl,--no-undefined)
  find_package(Threads REQUIRED)
  target_link_libraries(gms_rt PUBLIC Threads::Threads)
  set_target_properties(gms_rt PROPERTIES OUTPUT_NAME gpumemsim_rt
                        LIBRARY_OUTPUT_DIRECTORY ${GMS_RUNTIME_DIR})

  file(GLOB GMS_CUDART_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/cudart_*.c)
  foreach(major 13 12)
    set(map ${CMAKE_SOURCE_DIR}/src/runtime/libcudart${major}.map)
    add_library(cudart${major} SHARED ${GMS_CUDART_SOURCES})
    target_link_libraries(cudart${major} PRIVATE gms_rt)
    target_compile_options(cudart${major} PRIVATE -fvisibility=hidden)
    target_link_options(cudart${major} PRIVATE -Wl,--version-script=${map}
                        -Wl,-soname,libcudart.so.${major} -Wl,--no-undefined)
    set_target_properties(cudart${major} PROPERTIES OUTPUT_NAME cudart SUFFIX .so.${major}
                          LIBRARY_OUTPUT_DIRECTORY ${GMS_RUNTIME_DIR}
                          BUILD_RPATH "$ORIGIN" INSTALL_RPATH "$ORIGIN" LINK_DEPENDS ${map})
  endforeach()
else()
  message(STATUS "src/runtime/fatbin.c is absent: the CUDA runtime libraries are not built")
endif()

# Unit tests of the runtime that need no nvcc (tests/runtime_unit/test_cudart_*.c).
if(TARGET cudart13)
  file(GLOB GMS_CUDART_UNIT_TESTS CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/tests/runtime_unit/test_cudart_*.c)
  foreach(src ${GMS_CUDART_UNIT_TESTS})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(${name} PRIVATE gms_rt PkgConfig::CMOCKA ${CMAKE_DL_LIBS})
    target_compile_definitions(${name} PRIVATE _GNU_SOURCE GMS_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
                               GMS_CUDART_PATH="$<TARGET_FILE:cudart13>"
                               GMS_CUDART12_PATH="$<TARGET_FILE:cudart12>")
    add_dependencies(${name} cudart13 cudart12)
    add_test(NAME unit.${name} COMMAND ${name})
    set_tests_properties(unit.${name} PROPERTIES LABELS "unit;runtime"
                         ENVIRONMENT "GPUMEMSIM_QUIET=1")
  endforeach()
endif()
