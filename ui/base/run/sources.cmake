# Run: the interface of a run wherever it runs (state, progress, ETA, cancel, resume, its
# telemetry, run directory, target); LaunchSpec, a local run's command line; LocalRun, one
# moe-train process on this machine.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/launch_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/launch_spec.h
  ${CMAKE_CURRENT_LIST_DIR}/local_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_run.h
  ${CMAKE_CURRENT_LIST_DIR}/run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run.h
  ${CMAKE_CURRENT_LIST_DIR}/run_files.h
)
