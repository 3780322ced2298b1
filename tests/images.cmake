# Surfaces through launch files (docs/launch-files.md, "Images"), labelled `images`: each
# tests/images/<name>.check is one test, images.<name>, run by the hints driver
# (tests/hints/hints_check.c): it runs gpumemsim on the launch files the check names, which must
# pass their expectations, and evaluates the assertions on their JSON statistics. Exit status 77
# (a `require-op` the PTX front-end does not accept yet) is a skip.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/images)
file(GLOB GMS_IMAGE_CHECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/images/*.check)
foreach(check ${GMS_IMAGE_CHECKS})
  get_filename_component(check_name ${check} NAME_WE)
  add_test(NAME images.${check_name}
           COMMAND hints_check $<TARGET_FILE:gpumemsim> ${check} ${CMAKE_BINARY_DIR}/images
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/images)
  set_tests_properties(images.${check_name} PROPERTIES LABELS "images" TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endforeach()
