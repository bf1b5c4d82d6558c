# The What-if routing view: a captured layer's tokens routed again under other settings by a
# long-lived `moe-train replay --serve` (docs/ROUTING.md, "What-if routing").
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/routing_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_bars.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_metrics_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_metrics_table.h
  ${CMAKE_CURRENT_LIST_DIR}/whatif_controls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whatif_controls.h
  ${CMAKE_CURRENT_LIST_DIR}/whatif_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whatif_view.h
)
