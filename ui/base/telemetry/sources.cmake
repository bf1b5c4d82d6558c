# The telemetry store: RunSeries (a run's telemetry in memory: steps, layers, ranks) and
# TelemetryFeed (parsing JSON Lines off the GUI thread). The dashboard, launch and runs folders
# read it; it depends on moe_protocol only.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/change_log.h
  ${CMAKE_CURRENT_LIST_DIR}/column_ops.h
  ${CMAKE_CURRENT_LIST_DIR}/compact_counts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compact_counts.h
  ${CMAKE_CURRENT_LIST_DIR}/layer_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layer_store.h
  ${CMAKE_CURRENT_LIST_DIR}/rank_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_store.h
  ${CMAKE_CURRENT_LIST_DIR}/run_series.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_series.h
  ${CMAKE_CURRENT_LIST_DIR}/run_series_read.cpp
  ${CMAKE_CURRENT_LIST_DIR}/series_columns.h
  ${CMAKE_CURRENT_LIST_DIR}/telemetry_feed.cpp
  ${CMAKE_CURRENT_LIST_DIR}/telemetry_feed.h
  ${CMAKE_CURRENT_LIST_DIR}/telemetry_protocol.h
)
