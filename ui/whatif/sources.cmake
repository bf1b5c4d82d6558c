# The What-if routing view: a captured layer's tokens routed again under other settings by a
# long-lived `moe-train replay --serve` (docs/ROUTING.md, "What-if routing").
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/replay_answer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay_answer.h
  ${CMAKE_CURRENT_LIST_DIR}/replay_server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay_server.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_bars.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_metrics_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_metrics_table.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_setting.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_setting.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_tensors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_tensors.h
  ${CMAKE_CURRENT_LIST_DIR}/safetensors_header.cpp
  ${CMAKE_CURRENT_LIST_DIR}/safetensors_header.h
  ${CMAKE_CURRENT_LIST_DIR}/synthetic_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/synthetic_input.h
  ${CMAKE_CURRENT_LIST_DIR}/whatif_controls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whatif_controls.h
  ${CMAKE_CURRENT_LIST_DIR}/whatif_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whatif_source.h
  ${CMAKE_CURRENT_LIST_DIR}/whatif_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whatif_view.h
)
