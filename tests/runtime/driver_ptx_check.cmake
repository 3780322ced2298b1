# Checks the JSON report of tests/runtime/driver_ptx.cu (run by driver_ptx.sh):
#   cmake -DJSON=<report> -P driver_ptx_check.cmake
# one launch, of saxpy, 32 CTAs of 128 threads; its counters follow from the PTX: 19 instructions
# per thread (77824 thread, 2432 warp instructions) and four global accesses per warp (two
# loads, a store and a reduction: 512 L1 requests).
file(READ ${JSON} report)
string(JSON launches LENGTH "${report}" launches)
string(JSON kernel GET "${report}" launches 0 kernel)
string(JSON grid GET "${report}" launches 0 grid 0)
string(JSON thread_instructions GET "${report}" launches 0 thread_instructions)
string(JSON warp_instructions GET "${report}" launches 0 warp_instructions)
string(JSON l1_requests GET "${report}" launches 0 l1 requests)
set(got "${launches} ${kernel} ${grid} ${thread_instructions} ${warp_instructions} ${l1_requests}")
set(want "1 saxpy 32 77824 2432 512")
if(NOT got STREQUAL want)
  message(FATAL_ERROR "driver_ptx report: launches kernel grid.x thread_instructions "
                      "warp_instructions l1.requests are '${got}', expected '${want}'")
endif()
message(STATUS "driver_ptx report: ${got}")
