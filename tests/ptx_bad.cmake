# One diagnostics test per bad PTX module in tests/ptx_bad/ (RULE.ptx, or RULE.what.ptx for a
# further case of a rule): `gpumemsim check FILE` must exit with status 2 and print the rule id
# and position that the module's first line expects; where RULE[.what].expected sits beside the
# module, its whole output must be exactly that file (paths relative to tests/ptx_bad/).
file(GLOB GMS_PTX_BAD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/ptx_bad/*.ptx)
foreach(bad ${GMS_PTX_BAD})
  get_filename_component(rule ${bad} NAME_WLE)
  add_test(NAME diag.ptx.${rule}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXE=$<TARGET_FILE:gpumemsim> -DGMS_FILE=${bad}
                   -P ${CMAKE_SOURCE_DIR}/tests/ptx_bad_check.cmake)
  set_tests_properties(diag.ptx.${rule} PROPERTIES LABELS diag)
endforeach()
