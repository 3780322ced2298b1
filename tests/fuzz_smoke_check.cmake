# Driver for one fuzz-smoke test (see fuzz.cmake), run with `cmake -P`. Inputs: GMS_FUZZER (the
# libFuzzer binary), GMS_TARGET (its name), GMS_SECONDS, GMS_WORK_DIR (scratch, recreated),
# GMS_CORPUS (seed folder), GMS_REGRESSIONS and GMS_DICT (a libFuzzer dictionary); the last two
# may not exist. libFuzzer writes the inputs it finds into the first folder it is given, so that
# is a scratch folder: the seeds in the source tree are only read.
file(REMOVE_RECURSE ${GMS_WORK_DIR})
file(MAKE_DIRECTORY ${GMS_WORK_DIR}/corpus ${GMS_WORK_DIR}/crashes)
set(seed_folders ${GMS_CORPUS})
if(IS_DIRECTORY ${GMS_REGRESSIONS})
  list(APPEND seed_folders ${GMS_REGRESSIONS})
endif()
set(dict_option)
if(EXISTS ${GMS_DICT})
  set(dict_option -dict=${GMS_DICT})
endif()
execute_process(COMMAND ${GMS_FUZZER} ${dict_option} -max_total_time=${GMS_SECONDS} -timeout=10
                        -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1
                        -artifact_prefix=${GMS_WORK_DIR}/crashes/
                        ${GMS_WORK_DIR}/corpus ${seed_folders}
                RESULT_VARIABLE status OUTPUT_VARIABLE log ERROR_VARIABLE log)
file(WRITE ${GMS_WORK_DIR}/fuzz.log "${log}")
if(NOT status EQUAL 0)
  file(GLOB crashes ${GMS_WORK_DIR}/crashes/*)
  string(LENGTH "${log}" log_length)
  if(log_length GREATER 6000)
    math(EXPR tail_start "${log_length} - 6000")
    string(SUBSTRING "${log}" ${tail_start} 6000 log)
  endif()
  message(NOTICE "${log}")
  message(FATAL_ERROR "fuzz_${GMS_TARGET} failed (exit status ${status}); input(s): ${crashes}\n"
                      "Copy each into tests/fuzz/regressions_${GMS_TARGET}/ and fix the bug. "
                      "The end of the log is above; all of it is in ${GMS_WORK_DIR}/fuzz.log.")
endif()
string(REGEX MATCHALL "stat::[a-z_]+: *[0-9]+" stats "${log}")
string(REPLACE ";" ", " stats "${stats}")
string(REGEX REPLACE ": +" ": " stats "${stats}")
message(STATUS "fuzz_${GMS_TARGET}: ${GMS_SECONDS} s clean; ${stats}")
