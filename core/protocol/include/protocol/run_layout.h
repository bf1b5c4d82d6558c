// The run directory's layout (docs/PROTOCOL.md, "The run directory"): the names of what the
// engine writes in <runs root>/<run id>/, and how a checkpoint's directory is named, in one place
// for the engine that writes them and the app that reads them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace moe::protocol::run_layout {

inline constexpr const char* kConfig = "config.json";          // the config as it was run
inline constexpr const char* kMetrics = "metrics.jsonl";       // the telemetry (rank 0)
inline constexpr const char* kStderrLog = "stderr.log";        // the human log
inline constexpr const char* kTrace = "trace.json";            // telemetry.trace's Chrome trace
inline constexpr const char* kCheckpoints = "checkpoints";     // checkpoints/step-<n>/
inline constexpr const char* kCheckpointState = "state.json";  // in a complete checkpoint
inline constexpr const char* kCaptures = "captures";           // telemetry.capture_every's files

// "step-<n>": the directory of what was written at step n (checkpoints/step-<n>/,
// captures/step-<n>/).
inline std::string step_dir_name(int64_t step) {
  return "step-" + std::to_string(step);
}

// n for a directory named "step-<n>" (decimal, at most 18 digits), else nullopt: a checkpoint
// still being written is ".step-<n>.tmp-<pid>" and is none.
inline std::optional<int64_t> parse_step_dir_name(std::string_view name) {
  constexpr std::string_view kPrefix = "step-";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string_view digits = name.substr(kPrefix.size());
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  int64_t n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace moe::protocol::run_layout
