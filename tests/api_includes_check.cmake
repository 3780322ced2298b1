# Driver of the test api.public_headers_only (tests/api.cmake), run as
#   cmake -DGMS_ROOT=<source folder> -P api_includes_check.cmake
# The command line, the API example and the API's unit test must include, of the project's own
# headers, only the public ones (include/gpumemsim/): every `#include "..."` they contain must
# name gpumemsim/<header>, or a header of the command line's own beside it (tools/gpumemsim/exec.h,
# no folder in the name). The CUDA runtime replacements (src/runtime/, DESIGN.md: above the public
# API) may also include their own runtime/<file>. Planted lines check that the check itself finds
# violations.
file(GLOB files RELATIVE ${GMS_ROOT} ${GMS_ROOT}/tools/gpumemsim/*.c)
list(APPEND files tests/unit/test_api.c)
file(GLOB examples RELATIVE ${GMS_ROOT} ${GMS_ROOT}/examples/api/*.c)
list(APPEND files ${examples})
file(GLOB runtime RELATIVE ${GMS_ROOT} ${GMS_ROOT}/src/runtime/*.c ${GMS_ROOT}/src/runtime/*.h)
list(APPEND files ${runtime})

# The names a file in folder `dir` includes with quotes, other than gpumemsim/<header> and the
# headers of tools/gpumemsim/ included from there.
function(private_includes text dir out)
  string(REGEX MATCHALL "#[ \t]*include[ \t]*\"[^\"]*\"" lines "${text}")
  set(bad "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ".*\"([^\"]*)\"" "\\1" name "${line}")
    if(dir STREQUAL "tools/gpumemsim" AND name MATCHES "^[A-Za-z0-9_]+\\.h$"
       AND EXISTS ${GMS_ROOT}/tools/gpumemsim/${name})
      continue()
    endif()
    if(dir STREQUAL "src/runtime" AND name MATCHES "^runtime/[A-Za-z0-9_]+\\.(h|def)$"
       AND EXISTS ${GMS_ROOT}/src/${name})
      continue()
    endif()
    if(NOT line MATCHES "\"gpumemsim/[A-Za-z0-9_]+\\.h\"")
      list(APPEND bad "${line}")
    endif()
  endforeach()
  set(${out} "${bad}" PARENT_SCOPE)
endfunction()

private_includes("#include \"gpumemsim/gpumemsim.h\"\n#include \"sim/sim.h\"\n" tools/gpumemsim
                 planted)
if(NOT planted STREQUAL "#include \"sim/sim.h\"")
  message(FATAL_ERROR "the include check missed a planted private header: '${planted}'")
endif()
private_includes("#include \"exec.h\"\n#include \"sim.h\"\n" tools/gpumemsim planted)
if(NOT planted STREQUAL "#include \"sim.h\"")
  message(FATAL_ERROR "the include check missed a planted header not in tools/gpumemsim: '${planted}'")
endif()
private_includes("#include \"runtime/rt_state.h\"\n#include \"exec/exec.h\"\n" src/runtime planted)
if(NOT planted STREQUAL "#include \"exec/exec.h\"")
  message(FATAL_ERROR "the include check let the runtime include the executor: '${planted}'")
endif()
private_includes("#include \"exec.h\"\n" examples/api planted)
if(NOT planted STREQUAL "#include \"exec.h\"")
  message(FATAL_ERROR "the include check let an example include the command line's header")
endif()

set(failed "")
foreach(f IN LISTS files)
  file(READ ${GMS_ROOT}/${f} text)
  get_filename_component(dir ${f} DIRECTORY)
  private_includes("${text}" "${dir}" bad)
  if(bad)
    list(APPEND failed "${f}: ${bad}")
  endif()
endforeach()
list(LENGTH files n)
if(n LESS 8)
  message(FATAL_ERROR "expected main.c, exec.c, test_api.c, an example and src/runtime/, found: ${files}")
endif()
if(failed)
  message(FATAL_ERROR "private headers included where only include/gpumemsim/ may be:\n${failed}")
endif()
