# Reusable plots: the time-series plot (synced zoom, decimation, smoothing, export), its step
# markers, the kept/dropped bars, the heatmaps over steps, experts, layers and ranks (the selection
# bias too), the shared expert's note, and the phase breakdown.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/adaptive_r_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/adaptive_r_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/capture_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capture_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/curve_decimator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/curve_decimator.h
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_bars.h
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expert_load_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_style.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_style.h
  ${CMAKE_CURRENT_LIST_DIR}/kept_dropped_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kept_dropped_bars.h
  ${CMAKE_CURRENT_LIST_DIR}/layer_load_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layer_load_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/phase_breakdown_plot.cpp
  ${CMAKE_CURRENT_LIST_DIR}/phase_breakdown_plot.h
  ${CMAKE_CURRENT_LIST_DIR}/plot_csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_export.h
  ${CMAKE_CURRENT_LIST_DIR}/plot_menu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_style.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_style.h
  ${CMAKE_CURRENT_LIST_DIR}/plot_sync.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_sync.h
  ${CMAKE_CURRENT_LIST_DIR}/rank_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/restart_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/restart_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/selection_bias_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/selection_bias_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/shared_expert_note.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shared_expert_note.h
  ${CMAKE_CURRENT_LIST_DIR}/step_heatmap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_heatmap.h
  ${CMAKE_CURRENT_LIST_DIR}/step_markers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_markers.h
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot.h
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot_draw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot_hover.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot_view.cpp
)
