# The dashboard's load-balance, phase and rank views, and the routing and straggler rules behind
# its warnings.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/adaptive_r_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/adaptive_r_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/capture_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capture_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_bars.h
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_style.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_style.h
  ${CMAKE_CURRENT_LIST_DIR}/layer_load_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layer_load_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/phase_bins.cpp
  ${CMAKE_CURRENT_LIST_DIR}/phase_bins.h
  ${CMAKE_CURRENT_LIST_DIR}/phase_breakdown_plot.cpp
  ${CMAKE_CURRENT_LIST_DIR}/phase_breakdown_plot.h
  ${CMAKE_CURRENT_LIST_DIR}/plan_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plan_check.h
  ${CMAKE_CURRENT_LIST_DIR}/restart_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/restart_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/rank_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_collapse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_collapse.h
  ${CMAKE_CURRENT_LIST_DIR}/slow_rank.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slow_rank.h
  ${CMAKE_CURRENT_LIST_DIR}/step_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/step_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_heatmap.h
)

# The dashboard itself: header, view controls and its pages.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dashboard_controls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dashboard_controls.h
  ${CMAKE_CURRENT_LIST_DIR}/imbalance_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/imbalance_page.h
  ${CMAKE_CURRENT_LIST_DIR}/load_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_page.h
  ${CMAKE_CURRENT_LIST_DIR}/plan_check_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plan_check_page.h
  ${CMAKE_CURRENT_LIST_DIR}/ranks_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ranks_page.h
  ${CMAKE_CURRENT_LIST_DIR}/run_dashboard.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_dashboard.h
  ${CMAKE_CURRENT_LIST_DIR}/run_dashboard_replay.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_header.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_header.h
  ${CMAKE_CURRENT_LIST_DIR}/training_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/training_page.h
)
