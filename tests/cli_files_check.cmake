# Prepares the folder of the file-system cases of cli.cmake (run as a fixture):
#   cmake -DGMS_SOURCE=<tests/cli/files> -DGMS_OUT=<build>/cli/files -DGMS_MODULE=<saxpy.ptx>
#         -P cli_files_check.cmake
# It starts from an empty folder, copies the launch files and the saxpy module there (the cases
# that must never overwrite an input then only ever risk these copies) and makes the special
# files a repository cannot hold: a link to /dev/zero, FIFOs, a sparse file over the 256 MiB cap
# for kernel files, and a link to a launch file.
if(NOT GMS_SOURCE OR NOT GMS_OUT OR NOT GMS_MODULE)
  message(FATAL_ERROR "usage: cmake -DGMS_SOURCE=DIR -DGMS_OUT=DIR -DGMS_MODULE=FILE -P cli_files_check.cmake")
endif()
file(REMOVE_RECURSE ${GMS_OUT})
file(MAKE_DIRECTORY ${GMS_OUT})
file(GLOB launch_files ${GMS_SOURCE}/*.json)
file(COPY ${launch_files} ${GMS_MODULE} DESTINATION ${GMS_OUT})
file(WRITE ${GMS_OUT}/x.bin "")
# the saxpy module under a suffix no dialect claims (module_named_dialect.json, check --dialect)
configure_file(${GMS_MODULE} ${GMS_OUT}/saxpy.kernel COPYONLY)
file(CREATE_LINK /dev/zero ${GMS_OUT}/zero.ptx SYMBOLIC)
file(CREATE_LINK self_link.json ${GMS_OUT}/alias.json SYMBOLIC)

function(run_tool)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${GMS_OUT} RESULT_VARIABLE status
                  ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${ARGN}: ${status} ${err}")
  endif()
endfunction()
run_tool(mkfifo fifo.ptx fifo_launch.json fifo_config.json fifo_out.bin)
run_tool(truncate -s 268435457 big.ptx)
# x.bin: 256 f32 elements, the init file of out_init.json.
run_tool(truncate -s 1024 x.bin)
