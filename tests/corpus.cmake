# The public-corpus script's self-test, labelled `corpus`: tools/corpus/build.sh on the made-up
# suite of tests/corpus/ (one source gpumemsim accepts, one it refuses, one with dynamic
# parallelism that nvcc compiles only with -rdc=true, one nvcc cannot compile)
# must print exactly tests/corpus/expected_summary.txt. Skipped (77) where nvcc is absent.
add_test(NAME corpus.script
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/corpus/corpus_check.sh $<TARGET_FILE:gpumemsim>)
set_tests_properties(corpus.script PROPERTIES LABELS corpus TIMEOUT 300 SKIP_RETURN_CODE 77)
