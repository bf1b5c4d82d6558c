# The Profiler's model (docs/PROFILER.md): a sweep's spec, the `moe-train bench` process and its
# results, the sweep store and its table. The charts and the form are ui/profiler.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bench_process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bench_process.h
  ${CMAKE_CURRENT_LIST_DIR}/bench_result.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bench_result.h
  ${CMAKE_CURRENT_LIST_DIR}/sweep_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_spec.h
  ${CMAKE_CURRENT_LIST_DIR}/sweep_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_store.h
  ${CMAKE_CURRENT_LIST_DIR}/sweep_table_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_table_model.h
)
