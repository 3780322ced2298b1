# Host-memory diagnostics, labelled `cli`: running out of host memory is a diagnostic with a rule
# id and the sizes involved (docs/faults.md, "Host memory"), checked by tests/host_memory/run.sh
# on a generated kernel with 2,048 live registers. The `ulimit` case fails the register files'
# mapping with an address-space limit, which a sanitizer build cannot run under: it is skipped
# there (exit status 77). The `physical` case needs more register memory than any host has.
foreach(mode ulimit physical)
  add_test(NAME hostmem.registers_${mode}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/host_memory/run.sh $<TARGET_FILE:gpumemsim> ${mode}
                   ${CMAKE_BINARY_DIR}/host_memory/${mode})
  set_tests_properties(hostmem.registers_${mode} PROPERTIES LABELS cli TIMEOUT 120
                       SKIP_RETURN_CODE 77)
  if(GMS_SANITIZE)
    set_tests_properties(hostmem.registers_${mode} PROPERTIES ENVIRONMENT GMS_SKIP_ULIMIT=1)
  endif()
endforeach()
# Starting CTAs on several host threads runs out of memory as on one (tests/host_memory/cta.sh):
# the same diagnostic with 1, 2 and 3 threads, under an address-space limit (skipped like the
# `ulimit` case in sanitizer builds).
add_test(NAME hostmem.cta_start
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/host_memory/cta.sh $<TARGET_FILE:gpumemsim>
                 ${CMAKE_BINARY_DIR}/host_memory/cta_start)
set_tests_properties(hostmem.cta_start PROPERTIES LABELS cli TIMEOUT 120 SKIP_RETURN_CODE 77)
if(GMS_SANITIZE OR GMS_TSAN)
  set_tests_properties(hostmem.cta_start PROPERTIES ENVIRONMENT GMS_SKIP_ULIMIT=1)
endif()
