# The hand-written LSC fence kernels of tests/visa/fence/ (tools/visa/fence_kernels.py), labelled
# `visa_fence`: every shared function x fence operation x scope of Intel's LSC_FENCE page that
# Intel's assembler accepts, run on the Xe presets, each checked against expected.json by
# tests/visa/fence/check.cmake (values kept or lost, the fence's write-back bytes, whether the
# reload hits the L1; docs/visa.md, "Fences and cache controls").
#   visa_fence.pvc.near.NAME      pvc: one tile, tile scope reaches as far as gpu scope
#   visa_fence.pvc-2t.far.NAME    pvc-2t, l2buf's line in the other tile: tile scope misses it
# (pvc-2t with every line in the thread's tile gives pvc's outcomes; check.cmake takes PLACE=near
# for it too.)
# The kernels need the vISA front-end's LSC instructions and ND-range launches; until both are
# in the tree (src/visa/visa_lsc_check.c, src/launch/launch_ndrange.c) no test is registered.
if(EXISTS ${CMAKE_SOURCE_DIR}/src/visa/visa_lsc_check.c AND
   EXISTS ${CMAKE_SOURCE_DIR}/src/launch/launch_ndrange.c)
  file(GLOB GMS_FENCE_KERNELS ${CMAKE_SOURCE_DIR}/tests/visa/fence/fence_*_*_*.visaasm)
  foreach(kernel ${GMS_FENCE_KERNELS})
    get_filename_component(name ${kernel} NAME_WE)
    foreach(run pvc:near pvc-2t:far)
      string(REPLACE ":" ";" parts ${run})
      list(GET parts 0 gpu)
      list(GET parts 1 place)
      add_test(NAME visa_fence.${gpu}.${place}.${name}
               COMMAND ${CMAKE_COMMAND} -DGMS=$<TARGET_FILE:gpumemsim> -DKERNEL=${kernel}
                       -DNAME=${name} -DGPU=${gpu} -DPLACE=${place}
                       -DEXPECTED=${CMAKE_SOURCE_DIR}/tests/visa/fence/expected.json
                       -DOUT=${CMAKE_BINARY_DIR}/visa_fence
                       -P ${CMAKE_SOURCE_DIR}/tests/visa/fence/check.cmake)
      set_tests_properties(visa_fence.${gpu}.${place}.${name} PROPERTIES LABELS visa_fence
                           TIMEOUT 60)
    endforeach()
  endforeach()
endif()
