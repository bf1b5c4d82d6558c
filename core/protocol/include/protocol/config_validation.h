// Semantic checks of a RunConfig: ranges, allowed values and rules between keys (docs/PROTOCOL.md,
// "RunConfig").
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/config_error.h"
#include "protocol/run_config.h"

namespace moe::protocol {

// Upper bounds beyond the documented rules. They reject typos (1e9 experts) before a launch, and
// keep every product the engine forms from them (experts*hidden*dim, batch_size*seq_len, the
// capacity k*floor(f*ceil(N/E))) far from int64 overflow. The GUI can use them as spin box ranges.
namespace limits {
inline constexpr int64_t kMaxDim = 1 << 16;
inline constexpr int64_t kMaxLayers = 1 << 10;
inline constexpr int64_t kMaxSeqLen = 1 << 20;
inline constexpr int64_t kMaxVocab = 1 << 24;
inline constexpr int64_t kMaxExperts = 1 << 16;
inline constexpr int64_t kMaxHidden = 1 << 20;
inline constexpr int64_t kMaxProcs = 1 << 16;
inline constexpr int64_t kMaxBatchSize = 1 << 24;
inline constexpr int64_t kMaxThreads = 1 << 12;
inline constexpr double kMaxTimeoutS = 7 * 24 * 3600.0;  // parallel.timeout_s: a week
// Below it c10d's millisecond time-outs round to 0, which c10d reads as "wait for ever".
inline constexpr double kMinTimeoutS = 1.0;
inline constexpr size_t kMaxNameLength = 100;  // run_id = <timestamp>-<name> is a directory name
// A capacity factor of E already keeps every choice (C >= k*N); larger values only risk overflow.
inline constexpr double kMaxAbsCapacityFactor = static_cast<double>(kMaxExperts);
}  // namespace limits

struct ValidateOptions {
  // Check that data.path exists on this machine. Off when the run will start elsewhere (ssh,
  // Slurm): the path names a file on that machine.
  bool check_files = true;
};

// Every problem of `config`, in key order; empty when the config can run. The parallel layout's
// rules are checked on the config's own world, parallel.nodes x parallel.nproc
// (parallel_layout.h: layout_problems).
std::vector<ConfigProblem> validate(const RunConfig& config, const ValidateOptions& options = {});

// Stable sort into the documented key order (config_fields.h); "" first, unknown keys last. For
// callers that add problems of their own to validate()'s.
void sort_by_key_order(std::vector<ConfigProblem>& problems);

// parse_config + validate: every problem of both kinds at once (what the GUI shows while the user
// types, and what `moe-train validate` prints). A validation problem at a key that already has a
// parse problem is left out. *out, if not null, receives the parsed config. Never throws.
std::vector<ConfigProblem> check(const nlohmann::json& json, RunConfig* out = nullptr,
                                 const ValidateOptions& options = {});

}  // namespace moe::protocol
