# Fuzz targets and their tests. Each tests/fuzz/fuzz_<target>.c defines LLVMFuzzerTestOneInput for
# one parser; tests/fuzz/corpus_<target>/ holds its seeds and tests/fuzz/regressions_<target>/
# every input that ever crashed it (file a new crash there, named after what it broke); an optional
# tests/fuzz/<target>.dict is a libFuzzer dictionary the smoke run mutates with.
#
#  fuzz.replay.<target>  (label fuzz-replay, every build): replay_<target>, the target linked
#      with tests/fuzz/replay_main.c, runs each seed and each regression input once. Under the
#      asan preset a regression that comes back fails the test; this needs no libFuzzer.
#  fuzz.smoke.<target>   (label fuzz-smoke, only with GMS_FUZZ=ON, clang): the libFuzzer binary
#      fuzz_<target> mutates the seeds and regressions for GMS_FUZZ_SMOKE_SECONDS seconds in a
#      scratch corpus under the build folder; any crash, leak, sanitizer report, out-of-memory
#      or slow input fails the test and leaves the input in <build>/fuzz-smoke/<target>/.
set(GMS_FUZZ_SMOKE_SECONDS 20 CACHE STRING "Seconds each fuzz-smoke test fuzzes")

file(GLOB GMS_FUZZ_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
if(GMS_FUZZ)
  add_custom_target(fuzzers)
endif()
foreach(fuzz_source ${GMS_FUZZ_SOURCES})
  get_filename_component(fuzz_name ${fuzz_source} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" fuzz_target ${fuzz_name})
  set(fuzz_corpus ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus_${fuzz_target})
  set(fuzz_regressions ${CMAKE_SOURCE_DIR}/tests/fuzz/regressions_${fuzz_target})
  if(NOT IS_DIRECTORY ${fuzz_corpus})
    message(FATAL_ERROR "fuzz target ${fuzz_name} has no seed folder ${fuzz_corpus}")
  endif()
  set(fuzz_inputs ${fuzz_corpus})
  if(IS_DIRECTORY ${fuzz_regressions})
    list(APPEND fuzz_inputs ${fuzz_regressions})
  endif()

  add_executable(replay_${fuzz_target} ${CMAKE_SOURCE_DIR}/tests/fuzz/replay_main.c
                                       ${fuzz_source})
  target_link_libraries(replay_${fuzz_target} PRIVATE gms)
  add_test(NAME fuzz.replay.${fuzz_target} COMMAND replay_${fuzz_target} ${fuzz_inputs})
  set_tests_properties(fuzz.replay.${fuzz_target} PROPERTIES LABELS fuzz-replay TIMEOUT 300)

  if(GMS_FUZZ)
    add_executable(${fuzz_name} ${fuzz_source})
    target_link_libraries(${fuzz_name} PRIVATE gms)
    target_link_options(${fuzz_name} PRIVATE -fsanitize=fuzzer)
    add_dependencies(fuzzers ${fuzz_name})
    add_test(NAME fuzz.smoke.${fuzz_target}
             COMMAND ${CMAKE_COMMAND} -DGMS_FUZZER=$<TARGET_FILE:${fuzz_name}>
                     -DGMS_TARGET=${fuzz_target} -DGMS_SECONDS=${GMS_FUZZ_SMOKE_SECONDS}
                     -DGMS_WORK_DIR=${CMAKE_BINARY_DIR}/fuzz-smoke/${fuzz_target}
                     -DGMS_CORPUS=${fuzz_corpus} -DGMS_REGRESSIONS=${fuzz_regressions}
                     -DGMS_DICT=${CMAKE_SOURCE_DIR}/tests/fuzz/${fuzz_target}.dict
                     -P ${CMAKE_SOURCE_DIR}/tests/fuzz_smoke_check.cmake)
    math(EXPR fuzz_timeout "${GMS_FUZZ_SMOKE_SECONDS} + 120")
    set_tests_properties(fuzz.smoke.${fuzz_target} PROPERTIES LABELS fuzz-smoke
                         TIMEOUT ${fuzz_timeout})
  endif()
endforeach()
