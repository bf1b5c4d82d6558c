# The Profiler tab: sweeps of `moe-train bench` (docs/PROFILER.md).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/profiler_charts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profiler_charts.h
  ${CMAKE_CURRENT_LIST_DIR}/profiler_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/profiler_view.h
  ${CMAKE_CURRENT_LIST_DIR}/sweep_form.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_form.h
)
