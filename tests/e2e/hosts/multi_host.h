#pragma once
// One run over several test hosts: a `moe-train launch` per host, as a user starts one per node.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../distributed_fixtures.h"
#include "test_hosts.h"

namespace moe::test {

inline constexpr int kMultiHostPort = 29500;  // free on every fresh host

struct MultiHostRun {
  std::vector<std::unique_ptr<MoeTrainProcess>> launchers;  // one per host, host 0 first
  // Waits for every launcher (killed after `limit`) and returns what each printed.
  std::vector<ProcessResult> wait(std::chrono::seconds limit);
};

// `moe-train launch --nnodes N --node-rank I ...` on host I of `hosts` for I in [0, nodes);
// `run_args` is each rank's command (run --config ...).
std::unique_ptr<MoeTrainProcess> start_node(const TestHosts& hosts, int node, int nodes,
                                            int per_node, const std::vector<std::string>& run_args,
                                            double grace_s = 5);
MultiHostRun start_on_hosts(const TestHosts& hosts, int nodes, int per_node,
                            const std::vector<std::string>& run_args, double grace_s = 5);

// Host 0's launcher's result as a RankRun (rank 0 speaks there).
RankRun as_rank_run(const ProcessResult& host0, const std::string& dir);

}  // namespace moe::test
