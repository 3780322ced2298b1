# Driver of a check whose whole output is known (tests/visa_lsc.cmake): runs GMS_EXE GMS_ARGS
# GMS_FILE from the file's folder and requires exit status GMS_STATUS and exactly the output in
# GMS_EXPECT (stdout then stderr).
get_filename_component(dir ${GMS_FILE} DIRECTORY)
get_filename_component(name ${GMS_FILE} NAME)
execute_process(COMMAND ${GMS_EXE} ${GMS_ARGS} ${name} WORKING_DIRECTORY ${dir}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL GMS_STATUS)
  message(FATAL_ERROR "expected exit status ${GMS_STATUS}, got ${status}:\n${out}${err}")
endif()
file(READ ${GMS_EXPECT} expected)
if(NOT "${out}${err}" STREQUAL expected)
  message(FATAL_ERROR "expected exactly:\n${expected}got:\n${out}${err}")
endif()
