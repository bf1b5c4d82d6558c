# The folders of ui/ depend on each other in one direction only (docs/ARCHITECTURE.md, "ui/
# folders"): a folder includes its own headers, the engine-free libraries' and those of the
# folders listed for it here, never one above it. A new include across folders either follows
# this order or changes it here, in the open.
#   cmake -DUI_DIR=<repository>/ui -P folder_dependencies.cmake
cmake_minimum_required(VERSION 3.25)
set(ui_folders telemetry widgets experiment launch dashboard runs whatif window)
set(allowed_telemetry "")
set(allowed_widgets "")
set(allowed_experiment "")
set(allowed_launch telemetry)
set(allowed_dashboard telemetry widgets launch)
set(allowed_runs telemetry widgets experiment launch dashboard)
set(allowed_whatif telemetry widgets experiment launch)
set(allowed_window telemetry widgets experiment launch dashboard runs whatif)

set(problems "")
foreach(folder ${ui_folders})
  file(GLOB_RECURSE sources ${UI_DIR}/${folder}/*.h ${UI_DIR}/${folder}/*.cpp)
  if(NOT sources)
    string(APPEND problems "ui/${folder}/ has no sources: this check is out of date\n")
  endif()
  foreach(other ${ui_folders})
    if(other STREQUAL folder OR other IN_LIST allowed_${folder})
      continue()
    endif()
    foreach(source ${sources})
      file(STRINGS ${source} hits REGEX "^[ \t]*#[ \t]*include[ \t]+\"${other}/")
      if(hits)
        file(RELATIVE_PATH where ${UI_DIR} ${source})
        string(APPEND problems "ui/${where} includes ui/${other}/: ${hits}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "ui/ folder dependencies broken:\n${problems}")
endif()
