# SMs on several host threads (docs/architecture.md, "SMs on several host threads"), labelled
# `threads`: every committed launch file runs in the functional mode with one and with three host
# threads, and the reports and JSON statistics must be byte-identical (tests/threads_same.sh).
set(GMS_THREADS_DIRS_kernels tests/kernels)
set(GMS_THREADS_DIRS_others tests/twins tests/sass tests/hints tests/bulk tests/images
    tests/mbarrier tests/timing_ctrl tests/visa bench/kernels/small)
foreach(part kernels others)
  add_test(NAME threads.same.${part}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/threads_same.sh $<TARGET_FILE:gpumemsim>
                   ${GMS_THREADS_DIRS_${part}}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(threads.same.${part} PROPERTIES LABELS threads TIMEOUT 900)
endforeach()
