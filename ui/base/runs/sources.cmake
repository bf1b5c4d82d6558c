# The run store (SQLite, on a worker thread), the run directory index, config comparison, the
# session's RunManager and the live run recorder. The runs list and compare views are ui/runs.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_diff.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_diff.h
  ${CMAKE_CURRENT_LIST_DIR}/live_run_recorder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/live_run_recorder.h
  ${CMAKE_CURRENT_LIST_DIR}/run_directory_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_directory_index.h
  ${CMAKE_CURRENT_LIST_DIR}/run_manager.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_manager.h
  ${CMAKE_CURRENT_LIST_DIR}/run_record.h
  ${CMAKE_CURRENT_LIST_DIR}/run_record_sql.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_record_sql.h
  ${CMAKE_CURRENT_LIST_DIR}/run_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_store.h
  ${CMAKE_CURRENT_LIST_DIR}/run_store_worker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_store_worker.h
)
