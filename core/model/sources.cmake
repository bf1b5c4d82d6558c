# moe::model: the models of docs/PROTOCOL.md, "RunConfig" (helloworld, lm, image) and their shared
# blocks.
target_sources(moe_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/attention.cpp
  ${CMAKE_CURRENT_LIST_DIR}/feed_forward.cpp
  ${CMAKE_CURRENT_LIST_DIR}/helloworld_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/image_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lm_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/moe_losses.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transformer_block.cpp
)
