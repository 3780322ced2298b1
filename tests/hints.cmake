# Demonstrations of the PTX cache hints (docs/cache-hints.md), labelled `hints`. Each
# tests/hints/<name>.check file is one test, hints.<name>: the driver tests/hints/hints_check.c runs
# gpumemsim on the launch files the check file names (each with --json) and evaluates its
# assertions on the JSON statistics. A check file whose first line starts with `# DISABLED:` is
# registered but disabled (it documents a known simulator bug; the line says which).
add_executable(hints_check ${CMAKE_SOURCE_DIR}/tests/hints/hints_check.c)
target_link_libraries(hints_check PRIVATE PkgConfig::JANSSON)

file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/hints)
file(GLOB GMS_HINT_CHECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/hints/*.check)
foreach(check ${GMS_HINT_CHECKS})
  get_filename_component(check_name ${check} NAME_WE)
  add_test(NAME hints.${check_name}
           COMMAND hints_check $<TARGET_FILE:gpumemsim> ${check} ${CMAKE_BINARY_DIR}/hints
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/hints)
  set_tests_properties(hints.${check_name} PROPERTIES LABELS hints TIMEOUT 120)
  file(STRINGS ${check} first_line LIMIT_COUNT 1)
  if(first_line MATCHES "^# DISABLED:")
    set_tests_properties(hints.${check_name} PROPERTIES DISABLED TRUE)
  endif()
endforeach()
