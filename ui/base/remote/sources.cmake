# Runs on other machines (docs/REMOTE.md): Target (where a run's processes start), the fixed
# scripts and their quoting, RemoteChannel (ssh, or sh for a Slurm cluster here), RemoteRun and its
# record, status and telemetry stream, RemoteFetch, the sbatch script, ConnectionTest.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/connection_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/connection_test.h
  ${CMAKE_CURRENT_LIST_DIR}/fetch_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fetch_files.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_channel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_channel.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_command.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_fetch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_fetch.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_run.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_run_end.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_run_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_run_record.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_scripts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_scripts.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_status.h
  ${CMAKE_CURRENT_LIST_DIR}/remote_telemetry_stream.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remote_telemetry_stream.h
  ${CMAKE_CURRENT_LIST_DIR}/shell_words.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shell_words.h
  ${CMAKE_CURRENT_LIST_DIR}/slurm_script.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slurm_script.h
  ${CMAKE_CURRENT_LIST_DIR}/ssh_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ssh_command.h
  ${CMAKE_CURRENT_LIST_DIR}/target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/target.h
)
