# The What-if routing view's model (docs/ROUTING.md, "What-if routing"): a captured layer's files,
# the routing settings, the `moe-train replay --serve` process and its answers. The view is
# ui/whatif.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/replay_answer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay_answer.h
  ${CMAKE_CURRENT_LIST_DIR}/replay_server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay_server.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_setting.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_setting.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_tensors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_tensors.h
  ${CMAKE_CURRENT_LIST_DIR}/safetensors_header.cpp
  ${CMAKE_CURRENT_LIST_DIR}/safetensors_header.h
  ${CMAKE_CURRENT_LIST_DIR}/synthetic_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/synthetic_input.h
  ${CMAKE_CURRENT_LIST_DIR}/whatif_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whatif_source.h
)
