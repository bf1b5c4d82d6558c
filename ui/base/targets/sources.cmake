# The user's saved launch targets (TargetStore, in the settings). Their form and dialog are
# ui/targets.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/target_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/target_store.h
)
