# Driver of the test api.public_headers_only (tests/api.cmake), run as
#   cmake -DGMS_ROOT=<source folder> -P api_includes_check.cmake
# The command line, the API example and the API's unit test must include, of the project's own
# headers, only the public ones (include/gpumemsim/): every `#include "..."` they contain must
# name gpumemsim/<header>. A planted line checks that the check itself finds a violation.
set(files tools/gpumemsim/main.c tests/unit/test_api.c)
file(GLOB examples RELATIVE ${GMS_ROOT} ${GMS_ROOT}/examples/api/*.c)
list(APPEND files ${examples})

# The names a file includes with quotes, other than gpumemsim/<header>.
function(private_includes text out)
  string(REGEX MATCHALL "#[ \t]*include[ \t]*\"[^\"]*\"" lines "${text}")
  set(bad "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "\"gpumemsim/[A-Za-z0-9_]+\\.h\"")
      list(APPEND bad "${line}")
    endif()
  endforeach()
  set(${out} "${bad}" PARENT_SCOPE)
endfunction()

private_includes("#include \"gpumemsim/gpumemsim.h\"\n#include \"sim/sim.h\"\n" planted)
if(NOT planted STREQUAL "#include \"sim/sim.h\"")
  message(FATAL_ERROR "the include check missed a planted private header: '${planted}'")
endif()

set(failed "")
foreach(f IN LISTS files)
  file(READ ${GMS_ROOT}/${f} text)
  private_includes("${text}" bad)
  if(bad)
    list(APPEND failed "${f}: ${bad}")
  endif()
endforeach()
list(LENGTH files n)
if(n LESS 3)
  message(FATAL_ERROR "expected main.c, test_api.c and an example, found: ${files}")
endif()
if(failed)
  message(FATAL_ERROR "private headers included where only include/gpumemsim/ may be:\n${failed}")
endif()
