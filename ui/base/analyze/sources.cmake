# The Analyze view's model (docs/INFERENCE.md, "Routing analysis"): `moe-train analyze`'s report
# read and checked, and analyze run from the app. The view is ui/analyze.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/analysis_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analysis_report.h
  ${CMAKE_CURRENT_LIST_DIR}/analyze_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analyze_job.h
)
