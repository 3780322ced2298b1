# Source-level checks, labelled `lint`.
#   lint.mem_vocabulary       src/mem contains no PTX vocabulary (tests/lint/mem_vocabulary.sh
#                             says which words): the memory system knows only the neutral
#                             contract of DESIGN.md.
#   lint.mem_vocabulary_self  the same script on a planted file that uses .cs, prefetchu and
#                             PTX: it must fail, so the check above can fail.
add_test(NAME lint.mem_vocabulary
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/lint/mem_vocabulary.sh ${CMAKE_SOURCE_DIR}/src/mem)
add_test(NAME lint.mem_vocabulary_self
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/lint/mem_vocabulary.sh
                 ${CMAKE_SOURCE_DIR}/tests/lint/planted)
set_tests_properties(lint.mem_vocabulary lint.mem_vocabulary_self PROPERTIES LABELS lint
                     TIMEOUT 60)
set_tests_properties(lint.mem_vocabulary_self PROPERTIES WILL_FAIL TRUE)
