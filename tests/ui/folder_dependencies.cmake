# The folders of ui/ depend on each other in one direction only (docs/ARCHITECTURE.md, "ui/
# folders"): a folder includes its own headers, the engine-free libraries' and those of the
# folders listed for it here, never one above it. A new include across folders either follows
# this order or changes it here, in the open.
#   cmake -DUI_DIR=<repository>/ui -P folder_dependencies.cmake
cmake_minimum_required(VERSION 3.25)
set(ui_folders telemetry storage widgets launch planner experiment dashboard runs report whatif
  profiler window)
set(allowed_telemetry "")
set(allowed_storage "")
set(allowed_widgets storage)
set(allowed_launch telemetry storage)
set(allowed_planner widgets storage launch)
set(allowed_experiment storage planner)
set(allowed_dashboard telemetry widgets storage launch planner)
set(allowed_runs telemetry widgets storage experiment launch dashboard)
set(allowed_report telemetry widgets storage experiment launch dashboard runs)
set(allowed_whatif telemetry widgets storage experiment launch)
set(allowed_profiler telemetry widgets storage experiment launch)
set(allowed_window telemetry widgets storage planner experiment launch dashboard runs report whatif
  profiler)

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
