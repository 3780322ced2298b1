# Driver for one command-line test (see cli.cmake), run as
#   cmake -DGMS_EXIT=N [-DGMS_STDOUT=REGEX] [-DGMS_STDERR=REGEX] [-DGMS_SAVE_STDOUT=FILE]
#         [-DGMS_ABSENT=GLOB|GLOB...] [-DGMS_PRESENT=FILE|FILE...]
#         -P cli_check.cmake -- PROGRAM ARGUMENT...
# It runs PROGRAM with the arguments (for at most 30 s) and fails unless the exit status is N and
# stdout and stderr match the given regular expressions. GMS_SAVE_STDOUT keeps stdout in a file
# for a later test. GMS_ABSENT: files (globs, in the working directory) removed before the run
# that must not exist after it; GMS_PRESENT: files removed before that must exist after it.
set(command "")
set(after_separator OFF)
foreach(index RANGE 1 ${CMAKE_ARGC})
  if(index EQUAL CMAKE_ARGC)
    break()
  endif()
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${index}}")
  elseif(CMAKE_ARGV${index} STREQUAL "--")
    set(after_separator ON)
  endif()
endforeach()
if(NOT command OR NOT DEFINED GMS_EXIT)
  message(FATAL_ERROR "usage: cmake -DGMS_EXIT=N ... -P cli_check.cmake -- PROGRAM ARGUMENT...")
endif()

string(REPLACE "|" ";" absent "${GMS_ABSENT}")
string(REPLACE "|" ";" present "${GMS_PRESENT}")
foreach(pattern IN LISTS absent present)
  file(GLOB stale LIST_DIRECTORIES false "${pattern}")
  if(stale)
    file(REMOVE ${stale})
  endif()
endforeach()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err INPUT_FILE /dev/null TIMEOUT 30)
string(REPLACE ";" " " shown "${command}")

# Prints what the command did verbatim (FATAL_ERROR would re-wrap it), then the reason.
function(fail reason)
  message(NOTICE "command: ${shown}\n--- stdout:\n${out}--- stderr:\n${err}---")
  message(FATAL_ERROR "${reason}")
endfunction()

if(NOT status STREQUAL GMS_EXIT)
  fail("expected exit status ${GMS_EXIT}, got ${status}")
endif()
if(DEFINED GMS_STDOUT AND NOT out MATCHES "${GMS_STDOUT}")
  fail("stdout does not match /${GMS_STDOUT}/")
endif()
if(DEFINED GMS_STDERR AND NOT err MATCHES "${GMS_STDERR}")
  fail("stderr does not match /${GMS_STDERR}/")
endif()
foreach(pattern IN LISTS absent)
  file(GLOB found LIST_DIRECTORIES false "${pattern}")
  if(found)
    fail("${found} must not exist after the run")
  endif()
endforeach()
foreach(name IN LISTS present)
  if(NOT EXISTS "${name}")
    fail("${name} must exist after the run")
  endif()
endforeach()
if(DEFINED GMS_SAVE_STDOUT)
  file(WRITE ${GMS_SAVE_STDOUT} "${out}")
endif()
