# The dashboard itself: header, view controls and its pages (training, load, imbalance, ranks,
# predicted vs measured).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dashboard_controls.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dashboard_controls.h
  ${CMAKE_CURRENT_LIST_DIR}/imbalance_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/imbalance_page.h
  ${CMAKE_CURRENT_LIST_DIR}/load_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_page.h
  ${CMAKE_CURRENT_LIST_DIR}/plan_check_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plan_check_page.h
  ${CMAKE_CURRENT_LIST_DIR}/ranks_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ranks_page.h
  ${CMAKE_CURRENT_LIST_DIR}/run_dashboard.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_dashboard.h
  ${CMAKE_CURRENT_LIST_DIR}/run_dashboard_replay.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_header.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_header.h
  ${CMAKE_CURRENT_LIST_DIR}/training_page.cpp
  ${CMAKE_CURRENT_LIST_DIR}/training_page.h
)
