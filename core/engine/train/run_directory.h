#pragma once
// The run directory of docs/PROTOCOL.md, "The run directory": <runs-root>/<run_id>/ with
// config.json, metrics.jsonl, stderr.log, checkpoints/ and trace.json.
#include <chrono>
#include <string>

#include "protocol/run_layout.h"

namespace moe::train {

struct RunDirectory {
  std::string path;
  std::string run_id;  // the directory's name
  std::string config() const { return file(protocol::run_layout::kConfig); }
  std::string metrics() const { return file(protocol::run_layout::kMetrics); }
  std::string stderr_log() const { return file(protocol::run_layout::kStderrLog); }
  std::string checkpoints() const { return file(protocol::run_layout::kCheckpoints); }
  std::string trace() const { return file(protocol::run_layout::kTrace); }
  std::string captures() const { return file(protocol::run_layout::kCaptures); }
  std::string file(const char* name) const { return path + "/" + name; }
};

// <yyyymmdd-hhmmss>-<name> in local time.
std::string make_run_id(const std::string& name, std::chrono::system_clock::time_point when);

// A new directory <runs_root>/<run_id>; when that exists already (two runs in one second), the
// id gets "-2", "-3"... std::runtime_error when it cannot be created.
RunDirectory create_run_directory(const std::string& runs_root, const std::string& name);

// `path` as a fresh run's directory: created when missing; InputError when it already holds a run
// (config.json or metrics.jsonl), which must be resumed, not overwritten.
RunDirectory use_run_directory(const std::string& path);

// An existing run's directory for --resume; InputError when it has no config.json.
RunDirectory existing_run_directory(const std::string& path);

}  // namespace moe::train
