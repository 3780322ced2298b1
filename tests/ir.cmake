# Tests of the kernel IR (src/ir/), labelled `ir`: golden listings of the IR printer, one per
# kernel file, `gpumemsim check --dump-ir FILE` compared with tests/golden/ir/<name>.ir (run from
# the repository root, so that the listing's header names the file by its relative path). The
# table self-tests, the verifier's rules and the verification of every committed kernel are unit
# tests (tests/unit/test_ir.c, test_ir_verify.c). Regenerate the listings after an intended change
# of the printer or the lowering with
#   GMS_UPDATE_GOLDEN=1 ctest --test-dir build/dev -L ir
# and review the diff of tests/golden/ir/ before committing it. The SASS listings
# (tests/golden/ir/sass_<name>.ir of tests/sass_good/<name>.sass) are compared here through the CLI
# (golden.ir.sass_<name>) and by the unit test tests/unit/test_sass.c, which parses without the
# executor; either `GMS_UPDATE_GOLDEN=1` rewrites them, to the same text.
foreach(ptx_file examples/saxpy/saxpy.ptx tests/golden/ir/ir_showcase.ptx
                 tests/kernels/surf2d_pitch/surf2d_pitch.sm_80.ptx)
  get_filename_component(name ${ptx_file} NAME_WE)
  add_test(NAME golden.ir.${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/ir_golden.sh $<TARGET_FILE:gpumemsim>
                   ${ptx_file} ${CMAKE_SOURCE_DIR}/tests/golden/ir/${name}.ir
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(golden.ir.${name} PROPERTIES LABELS "ir;golden" TIMEOUT 60)
endforeach()
file(GLOB GMS_IR_SASS_GOOD CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/sass_good/*.sass)
foreach(sass_file ${GMS_IR_SASS_GOOD})
  get_filename_component(name ${sass_file} NAME_WE)
  add_test(NAME golden.ir.sass_${name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/ir_golden.sh $<TARGET_FILE:gpumemsim>
                   tests/sass_good/${name}.sass ${CMAKE_SOURCE_DIR}/tests/golden/ir/sass_${name}.ir
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(golden.ir.sass_${name} PROPERTIES LABELS "ir;golden" TIMEOUT 60)
endforeach()
# A file that does not check clean prints no IR: only its diagnostics, exit status 2.
add_test(NAME ir.dump_ir_bad_file
         COMMAND ${CMAKE_COMMAND} -DGMS_EXIT=2 "-DGMS_STDOUT=^$"
                 "-DGMS_STDERR=^tests/ptx_bad/PTX-ARCH-001.ptx:11:2: error: [^\n]*\\[PTX-ARCH-001\\]\n$"
                 -P ${CMAKE_SOURCE_DIR}/tests/cli_check.cmake -- $<TARGET_FILE:gpumemsim> check
                 --dump-ir tests/ptx_bad/PTX-ARCH-001.ptx
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(ir.dump_ir_bad_file PROPERTIES LABELS "ir;cli" TIMEOUT 60)
