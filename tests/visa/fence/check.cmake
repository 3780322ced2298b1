# One LSC fence kernel of this folder on one Xe preset (tests/visa_fence.cmake registers them):
# writes its ND-range launch file, runs `gpumemsim run --json`, and compares what the fence left
# with expected.json (tools/visa/fence_kernels.py derives it from src/mem/mem_lsc.c's rules):
# the two values read back after the fence (buf's word 5 with or without its +100, l2buf's word 5
# with or without its +1000), the fence's L1 write-back and DRAM write bytes, and whether the
# reload of buf hit the L1.
# Variables: GMS (gpumemsim), KERNEL (.visaasm), NAME, GPU, PLACE ("near": l2buf at its start;
# "far": 4096 bytes on, where pvc-2t puts its line in the other tile's L2 slices), EXPECTED
# (expected.json), OUT (a scratch folder).
set(dir ${OUT}/${GPU}.${PLACE})
file(MAKE_DIRECTORY ${dir})
if(PLACE STREQUAL "far")
  set(l2count 1040)
  set(l2offset 4096)
  set(l2start 3976) # word 1024 + 5 holds 5005, as in the near placement
else()
  set(l2count 16)
  set(l2offset 0)
  set(l2start 5000)
endif()
file(WRITE ${dir}/${NAME}.json "{
  \"module\": \"${KERNEL}\", \"gpu\": \"${GPU}\",
  \"buffers\": {
    \"buf\": {\"type\": \"u32\", \"count\": 16, \"init\": {\"iota\": {\"start\": 1, \"step\": 3}}},
    \"l2buf\": {\"type\": \"u32\", \"count\": ${l2count},
              \"init\": {\"iota\": {\"start\": ${l2start}, \"step\": 1}}},
    \"out\": {\"type\": \"u32\", \"count\": 32, \"init\": {\"fill\": 0}}
  },
  \"launches\": [
    {\"kernel\": \"${NAME}\", \"global_size\": [16], \"local_size\": [16],
     \"args\": [{\"buffer\": \"buf\"}, {\"buffer\": \"l2buf\", \"offset\": ${l2offset}},
              {\"buffer\": \"out\"}],
     \"payload\": {\"bytes\": 56, \"items\": [{\"offset\": 32, \"arg\": 0},
                                          {\"offset\": 40, \"arg\": 1},
                                          {\"offset\": 48, \"arg\": 2}]}}
  ],
  \"outputs\": {\"out\": \"${NAME}.out\"}
}
")
execute_process(COMMAND ${GMS} run ${dir}/${NAME}.json --quiet --json ${dir}/${NAME}.stats
                RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE text)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpumemsim run exited with ${rc}:\n${text}")
endif()

# word i of the output, little-endian
file(READ ${dir}/${NAME}.out hex HEX)
function(word index out)
  math(EXPR at "${index} * 8")
  string(SUBSTRING "${hex}" ${at} 8 w)
  string(REGEX REPLACE "(..)(..)(..)(..)" "\\4\\3\\2\\1" w "${w}")
  math(EXPR v "0x${w}")
  set(${out} ${v} PARENT_SCOPE)
endfunction()
word(5 buf_word)
word(21 l2_word)
set(got_buf_kept false)
set(got_l2buf_kept false)
if(buf_word EQUAL 116)      # 1 + 3 * 5 + 100
  set(got_buf_kept true)
elseif(NOT buf_word EQUAL 16)
  message(FATAL_ERROR "out[5] is ${buf_word}, neither 16 nor 116")
endif()
if(l2_word EQUAL 6005)      # 5005 + 1000
  set(got_l2buf_kept true)
elseif(NOT l2_word EQUAL 5005)
  message(FATAL_ERROR "out[21] is ${l2_word}, neither 5005 nor 6005")
endif()

# the fence's counters and the reload's L1 hits, found by their text
file(READ ${dir}/${NAME}.stats stats)
string(JSON n LENGTH "${stats}" instructions)
math(EXPR last "${n} - 1")
set(fence_found 0)
set(reload_found 0)
foreach(i RANGE ${last})
  string(JSON text GET "${stats}" instructions ${i} text)
  if(text MATCHES "^lsc_fence")
    string(JSON got_l1wb GET "${stats}" instructions ${i} l1 writeback_bytes)
    string(JSON got_dram GET "${stats}" instructions ${i} dram write_bytes)
    set(fence_found 1)
  elseif(text MATCHES "/// \\$13")
    string(JSON hits GET "${stats}" instructions ${i} l1 sector_hits)
    set(reload_found 1)
  endif()
endforeach()
if(NOT fence_found OR NOT reload_found)
  message(FATAL_ERROR "the report has no lsc_fence or no reload (/// $13)")
endif()
set(got_hits false)
if(hits EQUAL 1)
  set(got_hits true)
endif()

file(READ ${EXPECTED} table)
string(JSON want GET "${table}" ${PLACE} ${NAME})
set(bad "")
foreach(key_got buf_kept:${got_buf_kept} l2buf_kept:${got_l2buf_kept}
        fence_l1_writeback_bytes:${got_l1wb} fence_dram_write_bytes:${got_dram}
        reload_hits_l1:${got_hits})
  string(REPLACE ":" ";" kv ${key_got})
  list(GET kv 0 key)
  list(GET kv 1 value)
  string(JSON expect GET "${want}" ${key})
  string(TOLOWER "${expect}" expect)
  if(expect STREQUAL "on")
    set(expect true)
  elseif(expect STREQUAL "off")
    set(expect false)
  endif()
  if(NOT "${expect}" STREQUAL "${value}")
    string(APPEND bad "  ${key}: got ${value}, expected ${expect}\n")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "${NAME} on ${GPU} (${PLACE}):\n${bad}")
endif()
