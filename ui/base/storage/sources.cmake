# MoE Studio's own SQLite files (runs.db, profiler.db): the connection and the checks every
# store over Qt SQL shares; files written all or nothing (whole_file.h); the CSV text every export
# writes (csv_text.h); runOnWorker, file and parsing work off the GUI thread (worker_task.h).
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/csv_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csv_text.h
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_file.h
  ${CMAKE_CURRENT_LIST_DIR}/whole_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whole_file.h
  ${CMAKE_CURRENT_LIST_DIR}/worker_task.h
)
