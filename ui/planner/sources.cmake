# The planner in the app (docs/PLANNER.md, "In the app"): the hardware profile choice shared by
# every view, its combo box, the Scaling view and its CSV.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/planner_profile_combo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_profile_combo.h
  ${CMAKE_CURRENT_LIST_DIR}/scaling_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scaling_table.h
  ${CMAKE_CURRENT_LIST_DIR}/scaling_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scaling_view.h
)
