# The Generate tab's model (docs/INFERENCE.md, "In the app: Generate"): the request and its
# command line, the model folder it names, the `moe-train generate` process and its telemetry
# lines, and the session they build. The widgets are ui/generate.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/generate_events.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generate_events.h
  ${CMAKE_CURRENT_LIST_DIR}/generate_process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generate_process.h
  ${CMAKE_CURRENT_LIST_DIR}/generate_request.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generate_request.h
  ${CMAKE_CURRENT_LIST_DIR}/generate_session.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generate_session.h
  ${CMAKE_CURRENT_LIST_DIR}/model_folder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_folder.h
)
