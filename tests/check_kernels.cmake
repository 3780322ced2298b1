# `gpumemsim check` over every PTX file the project ships: one ctest per file under
# tests/kernels/, examples/ and bench/kernels/, named check.<path from the repository root> and
# labelled `check`. A shipped kernel must parse and check clean: exit status 0 and not one line
# of output (a warning counts as a failure, so none can creep in unnoticed).
file(GLOB_RECURSE GMS_SHIPPED_PTX CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/tests/kernels/*.ptx
     ${CMAKE_SOURCE_DIR}/examples/*.ptx
     ${CMAKE_SOURCE_DIR}/bench/kernels/*.ptx)
list(SORT GMS_SHIPPED_PTX)
foreach(ptx_file ${GMS_SHIPPED_PTX})
  file(RELATIVE_PATH ptx_name ${CMAKE_SOURCE_DIR} ${ptx_file})
  add_test(NAME check.${ptx_name} COMMAND gpumemsim check ${ptx_file})
  # Any character of output, on stdout or stderr, fails the test; the exit status must be 0.
  set_tests_properties(check.${ptx_name} PROPERTIES LABELS check TIMEOUT 60
                       FAIL_REGULAR_EXPRESSION ".")
endforeach()
