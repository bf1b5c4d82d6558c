target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/plot_csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_export.h
  ${CMAKE_CURRENT_LIST_DIR}/plot_menu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_style.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_style.h
  ${CMAKE_CURRENT_LIST_DIR}/plot_sync.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_sync.h
  ${CMAKE_CURRENT_LIST_DIR}/readout_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readout_format.h
  ${CMAKE_CURRENT_LIST_DIR}/smoothing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/smoothing.h
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot.h
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot_hover.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time_series_plot_view.cpp
)
