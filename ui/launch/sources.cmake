# Launch: Run (the interface every run has, wherever it runs), LocalRun (one moe-train process on
# this machine) and RunManager (the runs of this session).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/connection_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/connection_test.h
  ${CMAKE_CURRENT_LIST_DIR}/command_export_dialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_export_dialog.h
  ${CMAKE_CURRENT_LIST_DIR}/command_exports.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_exports.h
  ${CMAKE_CURRENT_LIST_DIR}/launch_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/launch_spec.h
  ${CMAKE_CURRENT_LIST_DIR}/local_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_run.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_channel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_channel.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_command.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_scripts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_scripts.h
  ${CMAKE_CURRENT_LIST_DIR}/ssh_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ssh_command.h
  ${CMAKE_CURRENT_LIST_DIR}/run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run.h
  ${CMAKE_CURRENT_LIST_DIR}/run_manager.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_manager.h
  ${CMAKE_CURRENT_LIST_DIR}/shell_words.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shell_words.h
  ${CMAKE_CURRENT_LIST_DIR}/slurm_script.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slurm_script.h
  ${CMAKE_CURRENT_LIST_DIR}/target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/target.h
  ${CMAKE_CURRENT_LIST_DIR}/target_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/target_store.h
)
