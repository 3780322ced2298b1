# The Nsight Compute metric mapping (docs/statistics.md, "Nsight Compute metrics"), labelled `cli`
# and `metrics`: the `gpumemsim metrics` command (tools/gpumemsim/metrics.c) and the "ncu"
# objects of real runs, checked by tests/metrics_check.cmake against the listing and against
# values that follow from the kernels (the derivations are beside each test).

gms_cli_test(metrics_help 0
             "^usage: gpumemsim metrics \\[NAME...\\] \\[options\\]\n.*\n  --help .*exit status: 0 success, 2 bad input"
             "^$" metrics --help)
gms_cli_test(metrics_in_usage 0 "\n  metrics \\[NAME...\\] +list the Nsight Compute metrics " "^$"
             --help)
# The listing: a header, then one row per metric: name, unit, when, how. The metrics the issue
# names are there, with the counter each comes from.
gms_cli_test(metrics_list 0
             "^# metric +unit +when +how gpumemsim computes it\nlaunch__grid_size +CTAs +always +CTAs in the grid: grid x \\* y \\* z\n.*\nsmsp__thread_inst_executed_pred_on\\.sum +thread instructions +always +thread_instructions_pred_on: active lanes whose guard predicate was true\n.*\nl1tex__t_sectors_pipe_lsu_mem_global_op_ld\\.sum +sectors +always +lsu\\.global_load_sectors: L1 sectors of global loads\n.*\nlts__t_sector_hit_rate\\.pct +% +always +100 \\* l2\\.sector_hits / l2\\.sector_accesses\n.*\ndram__bytes_read\\.sum +bytes +always +dram\\.read_bytes\n.*\nsm__cycles_elapsed\\.max +cycles +timing +timing\\.cycles: from the launch to the retirement of its last CTA\n.*\nsmsp__warp_issue_stalled_lg_throttle_per_warp_active\\.pct +% +timing +100 \\* timing\\.stalls\\.memory_throttle / the sum of timing\\.stalls \\(warp_resident_cycles\\)\\. memory_throttle: the memory pipeline \\(LSU/MIO queue, MSHRs\\) cannot take another access yet\n"
             "^$" metrics)
# Names pick rows, in the order given, under the header.
gms_cli_test(metrics_names 0
             "^# metric +unit +when +how gpumemsim computes it\nlts__t_sector_hit_rate\\.pct +% +always +[^\n]*\ndram__bytes_read\\.sum +bytes +always +dram\\.read_bytes\n$"
             "^$" metrics lts__t_sector_hit_rate.pct dram__bytes_read.sum)
# Mistakes: every one is reported, and nothing is printed on stdout.
gms_cli_test(metrics_unknown_name 2 "^$"
             "^gpumemsim: error: metrics: no metric 'dram__bytes_red\\.sum' in the mapping; `gpumemsim metrics` lists them \\[CLI-METRICS-001\\]\n$"
             metrics dram__bytes_read.sum dram__bytes_red.sum)
gms_cli_test(metrics_unknown_option 2 "^$"
             "^gpumemsim: error: metrics: unknown option '--json'; `gpumemsim metrics --help` shows the usage \\[CLI-METRICS-002\\]\ngpumemsim: error: metrics: no metric 'x' in the mapping; `gpumemsim metrics` lists them \\[CLI-METRICS-001\\]\n$"
             metrics --json x)

# gms_metrics_run(NAME LAUNCH GPU [TIMING ON|OFF] [LSU_SUM] [NAME=VALUE...]): metrics.run.NAME.
function(gms_metrics_run name launch gpu)
  set(checks ${ARGN})
  set(lsu 0)
  set(timing "")
  list(GET checks 0 first)
  if(first STREQUAL "TIMING")
    list(GET checks 1 value)
    set(timing -DGMS_TIMING=${value})
    list(POP_FRONT checks)
    list(POP_FRONT checks)
  endif()
  list(LENGTH checks n)
  if(n GREATER 0)
    list(GET checks 0 first)
    if(first STREQUAL "LSU_SUM")
      set(lsu 1)
      list(POP_FRONT checks)
    endif()
  endif()
  string(REPLACE ";" "," checks "${checks}") # a -D value cannot carry a list
  add_test(NAME metrics.run.${name}
           COMMAND ${CMAKE_COMMAND} -DGMS_SIM=$<TARGET_FILE:gpumemsim> -DGMS_LAUNCH=${launch}
                   -DGMS_GPU=${gpu} -DGMS_OUT=${CMAKE_CURRENT_BINARY_DIR}/metrics/${name}
                   -DGMS_LSU_SUM=${lsu} ${timing} "-DGMS_CHECKS=${checks}"
                   -P ${CMAKE_SOURCE_DIR}/tests/metrics_check.cmake)
  set_tests_properties(metrics.run.${name} PROPERTIES LABELS "cli;metrics" TIMEOUT 300)
endfunction()

# stream_dram (tests/hier.cmake derives its counters): n = 65536 floats read once and written
# once by 256 CTAs of 256 threads. The load: 2048 warp requests of 4 cold sectors (8192 L1
# misses); the store: 2048 requests of 4 sectors. No local memory, no shared memory. L2: 16384
# sector accesses, all misses, 32 bytes each; DRAM reads 4n bytes in the launch (the dirty
# sectors are written back at the end of the run, outside the launch). Hit rates of zero
# accesses are null.
foreach(timing ON OFF)
gms_metrics_run(stream_dram.timing_${timing}
                ${CMAKE_SOURCE_DIR}/tests/kernels/stream_dram/stream_dram.json h100
                TIMING ${timing} LSU_SUM
                launch__grid_size=256 launch__block_size=256
                l1tex__t_requests.sum=4096 l1tex__t_sectors.sum=16384
                l1tex__t_sectors_lookup_hit.sum=0 l1tex__t_bytes.sum=524288
                l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum=2048
                l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum=8192
                l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum=0
                l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum=8192
                l1tex__t_requests_pipe_lsu_mem_global_op_st.sum=2048
                l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum=8192
                l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum=0
                l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum=0
                l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct=null
                l1tex__data_pipe_lsu_wavefronts_mem_shared.sum=0
                lts__t_sectors.sum=16384 lts__t_sectors_lookup_miss.sum=16384
                lts__t_bytes.sum=524288
                dram__bytes_read.sum=262144 dram__sectors_read.sum=8192)
endforeach()
# local_sort keeps a per-thread window in local memory: its local loads and stores and its global
# ones add up to every L1 request and sector.
gms_metrics_run(local_sort ${CMAKE_SOURCE_DIR}/tests/kernels/local_sort/local_sort.json a100
                TIMING ON LSU_SUM)
# Several launches under the model, and a SASS kernel (its control codes drive the issue): every
# launch's timing object is consistent with its ncu metrics.
gms_metrics_run(stale_l1 ${CMAKE_SOURCE_DIR}/tests/kernels/stale_l1/stale_l1.json a100 TIMING ON)
gms_metrics_run(sass_carry64 ${CMAKE_SOURCE_DIR}/tests/sass/carry64.json - TIMING ON LSU_SUM)
