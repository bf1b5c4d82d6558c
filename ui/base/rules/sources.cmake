# Qt-free rules over a run's telemetry that the dashboard's warnings and the reports share:
# routing collapse, the slow rank, the planner's model against the measured run.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/plan_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plan_check.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_collapse.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_collapse.h
  ${CMAKE_CURRENT_LIST_DIR}/slow_rank.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slow_rank.h
)
