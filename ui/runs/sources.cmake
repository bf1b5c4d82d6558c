# The runs list and the config comparison view (the run store and the rest without widgets are
# ui/base/runs).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_diff_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_diff_view.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_filter_proxy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runs_filter_proxy.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_table_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runs_table_model.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runs_view.h
  ${CMAKE_CURRENT_LIST_DIR}/runs_view_remote.cpp
)

# Comparing runs on one plot.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compare_metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare_metrics.h
  ${CMAKE_CURRENT_LIST_DIR}/compare_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare_view.h
)
