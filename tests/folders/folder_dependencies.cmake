# The folders of a source tree (ui/, core/) depend on each other in one direction only
# (docs/ARCHITECTURE.md): a folder includes its own headers, those of libraries outside the tree
# and those of the folders its rules list for it, never one above it. A new include across folders
# either follows this order or changes the rules, in the open.
#   cmake -DTREE=<repository>/ui -DRULES=<this folder>/ui_folders.cmake -P folder_dependencies.cmake
# RULES sets `folders` (every folder of the tree that is checked) and `allowed_<folder>` for each.
cmake_minimum_required(VERSION 3.25)
include(${RULES})
get_filename_component(tree_name ${TREE} NAME)

set(problems "")
foreach(folder ${folders})
  file(GLOB_RECURSE sources ${TREE}/${folder}/*.h ${TREE}/${folder}/*.cpp ${TREE}/${folder}/*.cu)
  if(NOT sources)
    string(APPEND problems "${tree_name}/${folder}/ has no sources: the rules are out of date\n")
  endif()
  foreach(other ${folders})
    if(other STREQUAL folder OR other IN_LIST allowed_${folder})
      continue()
    endif()
    foreach(source ${sources})
      file(STRINGS ${source} hits REGEX "^[ \t]*#[ \t]*include[ \t]+\"${other}/")
      if(hits)
        file(RELATIVE_PATH where ${TREE} ${source})
        string(APPEND problems
          "${tree_name}/${where} includes ${tree_name}/${other}/: ${hits}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "${tree_name}/ folder dependencies broken:\n${problems}")
endif()
