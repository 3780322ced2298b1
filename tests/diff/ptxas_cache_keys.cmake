# Cache keys of the ptxas differential's modules (see run_cache_diff.sh), run with `cmake -P`, which
# hashes in-process: no second copy of thousands of files. Inputs: GMS_CASES_DIR (the NNNNN.ptx
# files) and GMS_KEYS (output: one line "NNNNN<TAB>sha256" per module, in no particular order).
#
# The key is the sha256 of the module text with its kernel's name taken out, since the generator
# names each kernel after its case number and inserting a case renumbers all that follow. Only a
# name that occurs exactly once in the text (its .entry declaration) is taken out, and the two
# kinds of text are hashed with different first lines, so modules share a key only when they
# differ in the name of a kernel that nothing refers to, which ptxas' verdict does not depend on.
file(GLOB modules ${GMS_CASES_DIR}/*.ptx)
set(keys "")
foreach(module IN LISTS modules)
  get_filename_component(id ${module} NAME_WE)
  file(READ ${module} text)
  set(kind "verbatim")
  if(text MATCHES "\\.entry[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
    set(name ${CMAKE_MATCH_1})
    string(FIND "${text}" "${name}" first)
    string(FIND "${text}" "${name}" last REVERSE)
    if(first EQUAL last)
      string(REPLACE "${name}" "<entry>" text "${text}")
      set(kind "renamed")
    endif()
  endif()
  string(SHA256 key "${kind}\n${text}")
  string(APPEND keys "${id}\t${key}\n")
endforeach()
file(WRITE ${GMS_KEYS} "${keys}")
