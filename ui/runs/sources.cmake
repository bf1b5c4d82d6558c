# The run store (SQLite), the runs list and config comparison.
# Other parts of ui/runs (the compare view, the live run recorder) list theirs in a block of their own.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_diff.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_diff.h
  ${CMAKE_CURRENT_LIST_DIR}/config_diff_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_diff_view.h
  ${CMAKE_CURRENT_LIST_DIR}/run_directory_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_directory_index.h
  ${CMAKE_CURRENT_LIST_DIR}/run_record.h
  ${CMAKE_CURRENT_LIST_DIR}/run_record_sql.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_record_sql.h
  ${CMAKE_CURRENT_LIST_DIR}/run_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_store.h
  ${CMAKE_CURRENT_LIST_DIR}/run_store_worker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_store_worker.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_filter_proxy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runs_filter_proxy.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_table_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runs_table_model.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runs_view.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_view_remote.cpp
)

# Comparing runs on one plot, and recording this session's live runs.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compare_metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare_metrics.h
  ${CMAKE_CURRENT_LIST_DIR}/compare_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare_view.h
  ${CMAKE_CURRENT_LIST_DIR}/live_run_recorder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/live_run_recorder.h
)
# RunManager: the registry of this session's runs (local and remote).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/run_manager.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_manager.h
)
