# The numbers behind plots: smoothing, phase bins per step and readout formats (the plots
# themselves are ui/widgets).
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/phase_bins.cpp
  ${CMAKE_CURRENT_LIST_DIR}/phase_bins.h
  ${CMAKE_CURRENT_LIST_DIR}/readout_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readout_format.h
  ${CMAKE_CURRENT_LIST_DIR}/smoothing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/smoothing.h
)
