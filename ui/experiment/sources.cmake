# The experiment editor: RunConfig form, JSON view, validation, presets, files and estimates.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_field_catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_field_catalog.h
  ${CMAKE_CURRENT_LIST_DIR}/config_form.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_form.h
  ${CMAKE_CURRENT_LIST_DIR}/estimates_panel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/estimates_panel.h
  ${CMAKE_CURRENT_LIST_DIR}/experiment_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/experiment_document.h
  ${CMAKE_CURRENT_LIST_DIR}/experiment_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/experiment_editor.h
  ${CMAKE_CURRENT_LIST_DIR}/experiment_file_actions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/experiment_file_actions.h
  ${CMAKE_CURRENT_LIST_DIR}/field_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/field_editor.h
  ${CMAKE_CURRENT_LIST_DIR}/field_relevance.cpp
  ${CMAKE_CURRENT_LIST_DIR}/field_relevance.h
  ${CMAKE_CURRENT_LIST_DIR}/human_units.cpp
  ${CMAKE_CURRENT_LIST_DIR}/human_units.h
  ${CMAKE_CURRENT_LIST_DIR}/json_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_editor.h
  ${CMAKE_CURRENT_LIST_DIR}/local_target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_target.h
  ${CMAKE_CURRENT_LIST_DIR}/preset_library.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preset_library.h
  ${CMAKE_CURRENT_LIST_DIR}/problem_list_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/problem_list_model.h
  ${CMAKE_CURRENT_LIST_DIR}/recent_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/recent_files.h
)
# Presets from the source tree until they are installed (PresetLibrary checks
# /usr/share/moe-studio/presets first).
set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/preset_library.cpp APPEND PROPERTY
  COMPILE_DEFINITIONS MOE_PRESETS_DIR="${PROJECT_SOURCE_DIR}/resources/presets")
