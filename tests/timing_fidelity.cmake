# Timing validation against published hardware figures (issue 12 item 4; docs/timing.md,
# "Validation"; tests/fidelity/README.md), labelled `fidelity`: one test per launch file named
# in tests/fidelity/cases.txt, fidelity.<folder>.<launch file stem>. Each runs the launch file
# with timing on (its expectations check the kernels' values), computes the model's figure of
# every case of that file from launches[i].timing.cycles of the JSON report (fidelity_figure)
# and fails when one is outside the published value's tolerance. The full sweeps are
# bench/fidelity/run.sh.
add_executable(fidelity_figure ${CMAKE_SOURCE_DIR}/tests/fidelity/fidelity_figure.c)
target_link_libraries(fidelity_figure PRIVATE PkgConfig::JANSSON m)

set(GMS_FIDELITY_CASES ${CMAKE_SOURCE_DIR}/tests/fidelity/cases.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${GMS_FIDELITY_CASES})
file(STRINGS ${GMS_FIDELITY_CASES} fidelity_lines ENCODING UTF-8 REGEX "^[^#]")
set(fidelity_launches "")
foreach(line IN LISTS fidelity_lines)
  # A case line's free text may hold a ';', which splits it into list items: only the item that
  # starts the line (name, launch file, ...) names a launch file. (The file is read as UTF-8:
  # read as bytes, the '§' of the source column split every line in two.)
  if(NOT line MATCHES "^[^ ]+ +[^ ]+\\.json ")
    continue()
  endif()
  string(REGEX REPLACE "^[^ ]+ +([^ ]+) .*$" "\\1" launch "${line}")
  list(APPEND fidelity_launches ${launch})
endforeach()
list(REMOVE_DUPLICATES fidelity_launches)
# The cases that chase or stream far beyond the L2 (one pass over a far-L2 footprint, building
# and chasing DRAM-sized chains, two triads over 4x the L2) take 12-80 s each on a dev build:
# `make test` leaves them to the sweeps of bench/fidelity/run.sh, which cover the same
# footprints. -DGMS_FIDELITY_SLOW=ON registers them as ctest cases too (label fidelity).
option(GMS_FIDELITY_SLOW "Register the slow timing-validation cases (far L2, DRAM) with ctest" OFF)
set(fidelity_slow_launches
    chase/a100_l2far_34m.json chase/h100_l2far_40m.json
    chase/a100_dram_64m.json chase/h100_dram_80m.json
    triad/a100_dram.json triad/h100_dram.json)
if(NOT GMS_FIDELITY_SLOW)
  list(REMOVE_ITEM fidelity_launches ${fidelity_slow_launches})
endif()
foreach(launch ${fidelity_launches})
  string(REGEX REPLACE "\\.json$" "" stem ${launch})
  string(REPLACE "/" "." test_name ${stem})
  add_test(NAME fidelity.${test_name}
           COMMAND sh ${CMAKE_SOURCE_DIR}/tests/fidelity/run_case.sh $<TARGET_FILE:gpumemsim>
                   $<TARGET_FILE:fidelity_figure> ${GMS_FIDELITY_CASES} ${launch})
  set_tests_properties(fidelity.${test_name} PROPERTIES LABELS fidelity TIMEOUT 900)
endforeach()
# Open findings (docs/timing.md, "Validation"): a case the model misses is not loosened; its test
# is disabled (set_tests_properties(... DISABLED TRUE)), so ctest lists it as "Not Run
# (Disabled)" until the model is fixed. None is open: finding 5 (gtx980 shared bandwidth under
# GTO) was fixed by the SM-wide memory-issue resource.

# The figure tool itself (label tools: it runs no simulation): a synthetic report with known
# cycles, each figure kind, a figure outside its tolerance (exit 1) and a report without timing
# (exit 2).
set(fidelity_selftest ${CMAKE_SOURCE_DIR}/tests/fidelity/selftest)
foreach(kind ok far none)
  add_test(NAME fidelity_tool.${kind}
           COMMAND sh -c "\"$0\" \"$1\" \"$2\" \"$3\" 2>&1; echo \"exit status $?\""
                   $<TARGET_FILE:fidelity_figure> ${fidelity_selftest}/report.json
                   ${fidelity_selftest}/cases.txt ${kind}.json)
  set_tests_properties(fidelity_tool.${kind} PROPERTIES LABELS tools)
endforeach()
set_tests_properties(fidelity_tool.ok PROPERTIES PASS_REGULAR_EXPRESSION
  "pass\\.latency +model +36\\.00 +published +36\\.00 +\\+0\\.0% +\\(tolerance 5%\\) +ok.*pass\\.bandwidth +model +3\\.56 +published +3\\.50 +\\+1\\.6%.*ok.*pass\\.stream +model +1500\\.00 +published +1500\\.00.*ok.*pass\\.nopub +model +36\\.00 +published +- .*exit status 0")
set_tests_properties(fidelity_tool.far PROPERTIES PASS_REGULAR_EXPRESSION
  "fail\\.latency +model +36\\.00 +published +30\\.00 +\\+20\\.0% .*OUTSIDE.*fail\\.absolute +model +36\\.00 +published +35\\.00 .*\\(tolerance 0\\.5\\) +OUTSIDE.*exit status 1")
set_tests_properties(fidelity_tool.none PROPERTIES PASS_REGULAR_EXPRESSION
  "launches\\[3\\] has no \"timing\".*exit status 2")
