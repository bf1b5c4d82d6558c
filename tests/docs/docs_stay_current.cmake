# The documents point at files that exist, and no file points outside the repository.
#   cmake -DSOURCE_DIR=<repository root> -P docs_stay_current.cmake
# 1. Every `path` in README.md and docs/*.md that starts with a top-level source folder (written in
#    backticks, e.g. `core/engine/layer/gate.cpp`) names a file or folder of the repository.
# 2. No source, build or document file refers to a file outside the repository or cites the
#    notes the project was briefed with: the rule is in docs/ARCHITECTURE.md, "References stay
#    inside the repository"; the references are docs/*.md.
set(problems "")

file(GLOB documents ${SOURCE_DIR}/README.md ${SOURCE_DIR}/docs/*.md)
foreach(doc ${documents})
  file(READ ${doc} text)
  string(REGEX MATCHALL
    "`(app|core|kernels|ui|tests|resources|packaging|cmake|docs)/[A-Za-z0-9_./-]+`" paths "${text}")
  list(REMOVE_DUPLICATES paths)
  foreach(quoted ${paths})
    string(REPLACE "`" "" path "${quoted}")
    if(NOT EXISTS ${SOURCE_DIR}/${path})
      file(RELATIVE_PATH where ${SOURCE_DIR} ${doc})
      string(APPEND problems "${where}: `${path}` does not exist\n")
    endif()
  endforeach()
endforeach()

set(patterns "")
foreach(folder app core kernels ui tests resources packaging cmake docs .ci)
  foreach(ext h cpp cmake txt md json sh py qrc xml desktop supp)
    list(APPEND patterns ${SOURCE_DIR}/${folder}/*.${ext})
  endforeach()
endforeach()
file(GLOB_RECURSE sources ${patterns})
file(GLOB top_level ${SOURCE_DIR}/*.txt ${SOURCE_DIR}/*.md ${SOURCE_DIR}/*.json ${SOURCE_DIR}/.ci/*)
list(APPEND sources ${top_level})
list(REMOVE_DUPLICATES sources)
# The forbidden names are put together from pieces, so that this file never spells them out.
string(CONCAT brief "S" "PEC")
string(CONCAT design "DES" "IGN")
string(CONCAT up_shared "\\.\\." "/shared")
set(outside
  "(${up_shared}|shared/(${brief}|${design})|${design}\\.md|(^|[^A-Za-z_])${brief}([^A-Za-z_]|$))")
foreach(source ${sources})
  file(STRINGS ${source} hits REGEX "${outside}")
  if(hits)
    file(RELATIVE_PATH where ${SOURCE_DIR} ${source})
    foreach(hit ${hits})
      string(STRIP "${hit}" hit)
      string(APPEND problems "${where}: refers outside the repository: ${hit}\n")
    endforeach()
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "Point these at docs/ARCHITECTURE.md, docs/ROUTING.md, docs/PROTOCOL.md "
    "or docs/BENCHMARKS.md, or fix the path:\n${problems}")
endif()
