#pragma once
// Runs of one config on several ranks (`moe-train launch`) or on one process (`moe-train run`),
// and the comparison that says two runs trained alike.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_fixtures.h"

namespace moe::test {

struct RankRun {
  int exit_status = -1;
  std::string out, err, dir;
  std::vector<nlohmann::json> events;  // of stdout
};

// `config` with parallel.nproc = ranks written to dir/<name>.json and run in dir/<name>: plainly
// with ranks == 1 (parallel.adaptive_r left out), else under `moe-train launch --nproc-per-node
// ranks`. Fails the test when the run does not complete.
RankRun run_on_ranks(const TempDir& dir, const nlohmann::json& config, int ranks,
                     const std::string& name, const std::vector<std::string>& extra_args = {});

// The args of `moe-train launch --nproc-per-node ranks -- <run_args>`.
std::vector<std::string> launch_args(int ranks, const std::vector<std::string>& run_args);

// The pid a rank logged at its start ("rank 1 of 2 on host (pid 1234)") in its stderr log, or -1.
int logged_pid(const std::string& log);

// Same steps with the same losses, gradient norms and load metrics (relative 1e-9: float64 runs
// that differ only in the order of sums), and the same eval results.
void expect_same_training(const RankRun& expected, const RankRun& actual);

}  // namespace moe::test
