# The numbers behind plots: smoothing, phase bins per step, readout formats and the shared expert
# of a run's config (the plots themselves are ui/widgets).
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/phase_bins.cpp
  ${CMAKE_CURRENT_LIST_DIR}/phase_bins.h
  ${CMAKE_CURRENT_LIST_DIR}/readout_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readout_format.h
  ${CMAKE_CURRENT_LIST_DIR}/shared_expert.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shared_expert.h
  ${CMAKE_CURRENT_LIST_DIR}/smoothing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/smoothing.h
)
