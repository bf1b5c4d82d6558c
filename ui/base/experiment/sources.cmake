# The experiment editor's document and what it knows without a window: the RunConfig field
# catalog, which keys a config leaves unused, human units, the presets, the recent files, the
# local target's limits and the import of Hugging Face model folders (moe-train import-hf). The
# form, JSON view and estimates panel are ui/experiment.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/config_field_catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_field_catalog.h
  ${CMAKE_CURRENT_LIST_DIR}/experiment_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/experiment_document.h
  ${CMAKE_CURRENT_LIST_DIR}/field_relevance.cpp
  ${CMAKE_CURRENT_LIST_DIR}/field_relevance.h
  ${CMAKE_CURRENT_LIST_DIR}/hf_import.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hf_import.h
  ${CMAKE_CURRENT_LIST_DIR}/human_units.cpp
  ${CMAKE_CURRENT_LIST_DIR}/human_units.h
  ${CMAKE_CURRENT_LIST_DIR}/local_target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_target.h
  ${CMAKE_CURRENT_LIST_DIR}/preset_library.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preset_library.h
  ${CMAKE_CURRENT_LIST_DIR}/recent_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/recent_files.h
)
# Presets from the source tree until they are installed (PresetLibrary checks
# /usr/share/moe-studio/presets first).
set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/preset_library.cpp APPEND PROPERTY
  COMPILE_DEFINITIONS MOE_PRESETS_DIR="${PROJECT_SOURCE_DIR}/resources/presets")
