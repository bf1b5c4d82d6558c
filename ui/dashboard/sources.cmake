# The live dashboard's data layer: RunSeries (telemetry in memory) and TelemetryFeed (parsing off
# the GUI thread).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/change_log.h
  ${CMAKE_CURRENT_LIST_DIR}/column_ops.h
  ${CMAKE_CURRENT_LIST_DIR}/compact_counts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compact_counts.h
  ${CMAKE_CURRENT_LIST_DIR}/layer_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layer_store.h
  ${CMAKE_CURRENT_LIST_DIR}/run_series.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_series.h
  ${CMAKE_CURRENT_LIST_DIR}/run_series_read.cpp
  ${CMAKE_CURRENT_LIST_DIR}/series_columns.h
  ${CMAKE_CURRENT_LIST_DIR}/telemetry_feed.cpp
  ${CMAKE_CURRENT_LIST_DIR}/telemetry_feed.h
  ${CMAKE_CURRENT_LIST_DIR}/telemetry_protocol.h
)
