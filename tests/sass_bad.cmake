# One diagnostics test per bad SASS module in tests/sass_bad/ (RULE.sass, or RULE.what.sass for a
# further case of a rule), one for every rule of docs/sass.md but SASS-LIMIT-001 (out of memory):
# `gpumemsim check FILE` must exit with status 2 and print the rule id and position that the
# module's first line expects (`// expect: RULE LINE:COL`); where RULE[.what].expected sits beside
# the module, its whole output must be exactly that file. The driver is PTX's.
file(GLOB GMS_SASS_BAD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/sass_bad/*.sass)
foreach(bad ${GMS_SASS_BAD})
  get_filename_component(rule ${bad} NAME_WLE)
  add_test(NAME diag.sass.${rule}
           COMMAND ${CMAKE_COMMAND} -DGMS_EXE=$<TARGET_FILE:gpumemsim> -DGMS_FILE=${bad}
                   -P ${CMAKE_SOURCE_DIR}/tests/ptx_bad_check.cmake)
  set_tests_properties(diag.sass.${rule} PROPERTIES LABELS diag)
endforeach()
