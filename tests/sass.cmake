# Effect tests of the SASS dialect (tests/sass/README.md), labelled `sass`: one hand-written
# .sass kernel per row of the CCTL/CCTLL and LDL/LDS seed pages, each with a .check file that
# tests/hints/hints_check evaluates on the run's JSON statistics and output (values through the
# launch file's expect). Every check file starts with `require-dialect sass`: until the SASS
# front-end is registered, the tests exit 77 and ctest reports them as skipped, with that reason.
# A check file whose first line starts with `# DISABLED:` is registered but disabled (the surface
# tests surf_*.check, written before surfaces execute; the line says why).
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/sass)
file(GLOB GMS_SASS_CHECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/sass/*.check)
foreach(check ${GMS_SASS_CHECKS})
  get_filename_component(check_name ${check} NAME_WE)
  add_test(NAME sass.${check_name}
           COMMAND hints_check $<TARGET_FILE:gpumemsim> ${check} ${CMAKE_BINARY_DIR}/sass
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/sass)
  set_tests_properties(sass.${check_name} PROPERTIES LABELS sass TIMEOUT 120
                       SKIP_RETURN_CODE 77)
  file(STRINGS ${check} first_line LIMIT_COUNT 1)
  if(first_line MATCHES "^# DISABLED:")
    set_tests_properties(sass.${check_name} PROPERTIES DISABLED TRUE)
  endif()
endforeach()
