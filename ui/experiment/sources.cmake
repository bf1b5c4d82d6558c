# The experiment editor: RunConfig form, JSON view, validation, presets, files, estimates and the
# Hugging Face import dialog.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_form.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_form.h
  ${CMAKE_CURRENT_LIST_DIR}/estimates_panel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/estimates_panel.h
  ${CMAKE_CURRENT_LIST_DIR}/experiment_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/experiment_editor.h
  ${CMAKE_CURRENT_LIST_DIR}/experiment_file_actions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/experiment_file_actions.h
  ${CMAKE_CURRENT_LIST_DIR}/field_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/field_editor.h
  ${CMAKE_CURRENT_LIST_DIR}/hf_import_dialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hf_import_dialog.h
  ${CMAKE_CURRENT_LIST_DIR}/json_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_editor.h
  ${CMAKE_CURRENT_LIST_DIR}/problem_list_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/problem_list_model.h
)
