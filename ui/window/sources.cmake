target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/main_window.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_style.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_panel.cpp
)
