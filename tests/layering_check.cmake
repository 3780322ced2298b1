# Driver of tests/layering.cmake: cmake -DGMS_SOURCE_DIR=<tree> -P layering_check.cmake
# Fails, naming file and line, when a file of src/sim/ or tools/gpumemsim/ includes a header of a
# dialect's folder (src/ptx/, src/sass/, src/visa/) or names a dialect's parse, list or registry
# entry (ptx_parse_module, ptx_dialect, ...).
if(NOT GMS_SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DGMS_SOURCE_DIR=DIR -P layering_check.cmake")
endif()
file(GLOB_RECURSE files ${GMS_SOURCE_DIR}/src/sim/*.c ${GMS_SOURCE_DIR}/src/sim/*.h
     ${GMS_SOURCE_DIR}/tools/gpumemsim/*.c ${GMS_SOURCE_DIR}/tools/gpumemsim/*.h)
list(LENGTH files nfiles)
if(nfiles LESS 2)
  message(FATAL_ERROR "found no sources under ${GMS_SOURCE_DIR}/src/sim and tools/gpumemsim")
endif()
set(bad "")
foreach(f ${files})
  file(STRINGS ${f} lines)
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(line MATCHES "#[ \t]*include[ \t]*\"(ptx|sass|visa)/" OR
       line MATCHES "(^|[^A-Za-z0-9_])(ptx|sass|visa)_(parse|lex|list|dialect|rule)")
      string(APPEND bad "${f}:${n}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "the simulator or the command line names a front-end:\n${bad}")
endif()
