# SMs on several host threads (docs/architecture.md, "SMs on several host threads"; docs/timing.md,
# "Host threads"), labelled `threads`: every committed launch file runs with one and with three
# host threads, in the functional mode and under the timing model (GTO, with every cycle handed
# over between the threads; LRR, with the default hand-overs, for the folders other than
# tests/kernels), and the reports and JSON statistics must be byte-identical
# (tests/threads_same.sh).
set(GMS_THREADS_DIRS_kernels tests/kernels)
set(GMS_THREADS_DIRS_others tests/twins tests/sass tests/hints tests/bulk tests/images
    tests/mbarrier tests/timing_ctrl tests/visa bench/kernels/small)
foreach(part kernels others)
  add_test(NAME threads.same.${part}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/threads_same.sh $<TARGET_FILE:gpumemsim>
                   ${GMS_THREADS_DIRS_${part}}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME threads.same_timed.${part}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/threads_same.sh -f "--scheduler gto"
                   $<TARGET_FILE:gpumemsim> ${GMS_THREADS_DIRS_${part}}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(threads.same.${part} threads.same_timed.${part}
                       PROPERTIES LABELS threads TIMEOUT 900)
  # every cycle through the threads' hand-overs, not only those with much work
  set_tests_properties(threads.same_timed.${part} PROPERTIES
                       ENVIRONMENT GPUMEMSIM_HANDOVER_TURNS=0)
endforeach()
add_test(NAME threads.same_timed_lrr.others
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/threads_same.sh -f "--scheduler lrr"
                 $<TARGET_FILE:gpumemsim> ${GMS_THREADS_DIRS_others}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# (labelled threads_lrr too: the ASan stage of make test leaves it out, as GTO covers the
# threads' code under the sanitizers)
set_tests_properties(threads.same_timed_lrr.others PROPERTIES LABELS "threads;threads_lrr"
                     TIMEOUT 900)
