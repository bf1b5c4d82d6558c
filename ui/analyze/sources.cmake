# The Analyze view over `moe-train analyze`'s reports and the dialog that runs analyze from the app
# (docs/INFERENCE.md, "Routing analysis"). Its model is ui/base/analyze.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/analyze_dialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analyze_dialog.h
  ${CMAKE_CURRENT_LIST_DIR}/analyze_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analyze_view.h
  ${CMAKE_CURRENT_LIST_DIR}/chart_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chart_view.h
)
