target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/command_export_dialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_export_dialog.h
  ${CMAKE_CURRENT_LIST_DIR}/main_window.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window.h
  ${CMAKE_CURRENT_LIST_DIR}/main_window_analyze.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_generate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_import.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_profiler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_reports.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_reports.h
  ${CMAKE_CURRENT_LIST_DIR}/main_window_runs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_targets.cpp
  ${CMAKE_CURRENT_LIST_DIR}/main_window_whatif.cpp
)
