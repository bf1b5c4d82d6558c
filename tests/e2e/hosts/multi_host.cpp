#include "multi_host.h"

#include <sstream>

namespace moe::test {

std::vector<ProcessResult> MultiHostRun::wait(std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<ProcessResult> results;
  for (auto& l : launchers) {
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(
        deadline - std::chrono::steady_clock::now());
    results.push_back(l->wait(std::max(left, std::chrono::seconds(1))));
  }
  return results;
}

std::unique_ptr<MoeTrainProcess> start_node(const TestHosts& hosts, int node, int nodes,
                                            int per_node, const std::vector<std::string>& run_args,
                                            double grace_s) {
  std::ostringstream grace;
  grace << grace_s;
  std::vector<std::string> command{moe_train_path(),
                                   "launch",
                                   "--nnodes",
                                   std::to_string(nodes),
                                   "--node-rank",
                                   std::to_string(node),
                                   "--nproc-per-node",
                                   std::to_string(per_node),
                                   "--master-addr",
                                   hosts.address(0),
                                   "--master-port",
                                   std::to_string(kMultiHostPort),
                                   "--grace-s",
                                   grace.str(),
                                   "--"};
  command.insert(command.end(), run_args.begin(), run_args.end());
  return std::make_unique<MoeTrainProcess>(hosts.runner(), hosts.on_host(node, command));
}

MultiHostRun start_on_hosts(const TestHosts& hosts, int nodes, int per_node,
                            const std::vector<std::string>& run_args, double grace_s) {
  MultiHostRun run;
  for (int node = 0; node < nodes; ++node)
    run.launchers.push_back(start_node(hosts, node, nodes, per_node, run_args, grace_s));
  return run;
}

RankRun as_rank_run(const ProcessResult& host0, const std::string& dir) {
  RankRun run;
  run.exit_status = host0.exit_status;
  run.out = host0.out;
  run.err = host0.err;
  run.dir = dir;
  run.events = events_of(host0.out);
  return run;
}

}  // namespace moe::test
