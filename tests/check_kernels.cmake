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

# The same for every vISA module the project ships as a kernel that runs (IGC's dumps, the fence
# kernels, hand-written run kernels, probes): the failing modules of tests/visa_bad/ and
# tests/visa/lsc_bad/ and the warning case of tests/visa/lsc_warn/ are tested by their rules.
file(GLOB_RECURSE GMS_SHIPPED_VISA CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/tests/visa/ocl/*.visaasm
     ${CMAKE_SOURCE_DIR}/tests/visa/fence/*.visaasm
     ${CMAKE_SOURCE_DIR}/tests/visa/run/*.visaasm
     ${CMAKE_SOURCE_DIR}/tests/visa/good/*.visaasm
     ${CMAKE_SOURCE_DIR}/tests/visa/lsc_run/*.visaasm
     ${CMAKE_SOURCE_DIR}/tests/config_keys/*.visaasm)
list(SORT GMS_SHIPPED_VISA)
foreach(visa_file ${GMS_SHIPPED_VISA})
  file(RELATIVE_PATH visa_name ${CMAKE_SOURCE_DIR} ${visa_file})
  add_test(NAME check.${visa_name} COMMAND gpumemsim check ${visa_file})
  set_tests_properties(check.${visa_name} PROPERTIES LABELS check TIMEOUT 60
                       FAIL_REGULAR_EXPRESSION ".")
endforeach()
