# The user's saved launch targets: TargetStore (in the settings), the form and the dialog that
# edit them.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/target_form.cpp
  ${CMAKE_CURRENT_LIST_DIR}/target_form.h
  ${CMAKE_CURRENT_LIST_DIR}/target_form_fields.cpp
  ${CMAKE_CURRENT_LIST_DIR}/targets_dialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/targets_dialog.h
  ${CMAKE_CURRENT_LIST_DIR}/targets_dialog_panels.cpp
)
