#include "slurm_cluster.h"

#include <utility>
#include <vector>

#include "../process.h"

namespace moe::test {

namespace {
constexpr const char* kScript = MOE_SLURM_CLUSTER_SCRIPT;
}

SlurmCluster::SlurmCluster(std::string dir, const std::string& hosts, int count)
    : dir_(std::move(dir)) {
  std::vector<std::string> args{"start", dir_};
  if (!hosts.empty()) args.insert(args.end(), {hosts, std::to_string(count)});
  const auto r = run_program(kScript, args);
  started_ = r.exit_status == 0;
  error_ = r.err;
}

SlurmCluster::~SlurmCluster() {
  run_program(kScript, {"stop", dir_});
}

}  // namespace moe::test
