# Golden statistics, labelled `golden`: for every launch file of tests/kernels/ (except fault
# tests) and tests/hints/, the JSON statistics of `gpumemsim run` must digest (tests/golden/
# stats_digest.c: every launch and total counter by name, a hash of the per-instruction records)
# exactly to the committed tests/golden/stats/<suite>/<name>.txt. They pin every counter, so a
# refactoring that should not change results (the dialect-neutral core) is checked to the count.
# Regenerate after an intended change with
#   GMS_UPDATE_GOLDEN=1 ctest --test-dir build/dev -L golden
# and review the diff of tests/golden/stats/ before committing it.
add_executable(stats_digest ${CMAKE_SOURCE_DIR}/tests/golden/stats_digest.c)
target_link_libraries(stats_digest PRIVATE PkgConfig::JANSSON)

# gms_stats_golden(SUITE NAME LAUNCH_FILE [RUN OPTION...]): golden.SUITE.NAME runs LAUNCH_FILE
# in its folder with the options and compares with tests/golden/stats/SUITE/NAME.txt.
function(gms_stats_golden suite name launch_file)
  get_filename_component(dir ${launch_file} DIRECTORY)
  add_test(NAME golden.${suite}.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/stats_golden.sh $<TARGET_FILE:gpumemsim>
                   $<TARGET_FILE:stats_digest> ${launch_file}
                   ${CMAKE_SOURCE_DIR}/tests/golden/stats/${suite}/${name}.txt ${ARGN}
           WORKING_DIRECTORY ${dir})
  # Exit status 77: the launch file has an "images" or "textures" section the simulator does not
  # read yet.
  set_tests_properties(golden.${suite}.${name} PROPERTIES LABELS golden TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endfunction()

file(GLOB GMS_GOLDEN_KERNEL_LAUNCHES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/kernels/*/*.json)
foreach(launch_file ${GMS_GOLDEN_KERNEL_LAUNCHES})
  get_filename_component(dir ${launch_file} DIRECTORY)
  get_filename_component(file_name ${launch_file} NAME)
  string(REGEX REPLACE "\\.json$" "" name ${file_name})
  if(NOT EXISTS ${dir}/expected_fault.txt)
    gms_stats_golden(kernels ${name} ${launch_file})
  endif()
endforeach()
# The hint demonstrations: every `run NAME LAUNCH [OPTION...]` line of every check file.
file(GLOB GMS_GOLDEN_HINT_CHECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/hints/*.check)
foreach(check ${GMS_GOLDEN_HINT_CHECKS})
  get_filename_component(check_name ${check} NAME_WE)
  file(STRINGS ${check} run_lines REGEX "^run ")
  foreach(line ${run_lines})
    string(REGEX REPLACE " +" ";" words "${line}")
    list(POP_FRONT words keyword run_name launch)
    gms_stats_golden(hints ${check_name}.${run_name} ${CMAKE_SOURCE_DIR}/tests/hints/${launch}
                     ${words})
  endforeach()
endforeach()
# The timing model's statistics (cycles, stall reasons per instruction, bandwidths) of a few
# launch files under both schedulers, so that a change meant only to speed the model up is
# checked to the cycle: PTX kernels, SASS twins (whose glue shares an instruction id) and vISA
# kernels. A deliberate change of the model re-pins them as above.
set(GMS_GOLDEN_TIMING_LAUNCHES
    tests/kernels/saxpy_cs/saxpy_cs.json
    tests/kernels/stencil2d/stencil2d.json
    tests/kernels/matmul_tiled/matmul_tiled.json
    bench/kernels/small/twin_transpose_256_sass.json
    bench/kernels/small/twin_reduce_64k_sass.json
    tests/visa/ocl/counter/counter.pvc.json
    tests/visa/ocl/local_reduce/local_reduce.acm-g10.json)
foreach(launch ${GMS_GOLDEN_TIMING_LAUNCHES})
  get_filename_component(name ${launch} NAME)
  string(REGEX REPLACE "\\.json$" "" name ${name})
  foreach(policy gto lrr)
    gms_stats_golden(timing ${name}.${policy} ${CMAKE_SOURCE_DIR}/${launch} --timing
                     --scheduler ${policy})
    set_property(TEST golden.timing.${name}.${policy} APPEND PROPERTY LABELS timing)
  endforeach()
endforeach()
