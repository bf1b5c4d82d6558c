# The planner's model without widgets: the hardware profile choice every view shares, the plan
# table model and the planner's number formats. The Scaling view is ui/planner.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/plan_model.h
  ${CMAKE_CURRENT_LIST_DIR}/planner_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_format.h
  ${CMAKE_CURRENT_LIST_DIR}/planner_profile_choice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/planner_profile_choice.h
)
