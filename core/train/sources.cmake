target_sources(moe_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/checkpoint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_support.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/grad_clip.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lr_schedule.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/optimizer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rng_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_directory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_log.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_totals.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stop_signal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trainer.cpp
)
