# The fat binary reader (src/runtime/fatbin.[ch], docs/cuda-runtime.md "Fat binaries"): a small
# position-independent library, gms_fatbin, that the runtime's shared library links; it
# decompresses PTX entries with libzstd and liblz4 (Debian: libzstd-dev, liblz4-dev).
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
add_library(gms_fatbin STATIC ${CMAKE_SOURCE_DIR}/src/runtime/fatbin.c)
set_target_properties(gms_fatbin PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(gms_fatbin PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(gms_fatbin PUBLIC PkgConfig::ZSTD PkgConfig::LZ4)

# Its unit test reads the committed fat binaries of tests/fatbin/ (made by gen_fatbins.sh with
# nvcc; the test itself needs no nvcc).
add_executable(test_fatbin ${CMAKE_SOURCE_DIR}/tests/fatbin/test_fatbin.c)
target_link_libraries(test_fatbin PRIVATE gms_fatbin PkgConfig::CMOCKA)
target_compile_definitions(test_fatbin PRIVATE GMS_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME unit.test_fatbin COMMAND test_fatbin)
set_tests_properties(unit.test_fatbin PROPERTIES LABELS unit)

# tests/fuzz.cmake made replay_fatbin (and fuzz_fatbin under GMS_FUZZ) from
# tests/fuzz/fuzz_fatbin.c with the simulator library only; the reader lives here.
if(TARGET replay_fatbin)
  target_link_libraries(replay_fatbin PRIVATE gms_fatbin)
endif()
if(TARGET fuzz_fatbin)
  target_link_libraries(fuzz_fatbin PRIVATE gms_fatbin)
endif()
