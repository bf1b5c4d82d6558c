#include "base/experiment/local_target.h"

#include <string>

namespace moe::ui {

std::vector<protocol::ConfigProblem> localTargetProblems(const protocol::RunConfig& c) {
  std::vector<protocol::ConfigProblem> out;
  if (c.parallel.nodes > 1) {
    out.push_back({"/parallel/nodes",
                   "parallel.nodes > 1 needs a cluster target: a local run starts every rank on "
                   "this machine, got " +
                       std::to_string(c.parallel.nodes)});
  }
  return out;
}

}  // namespace moe::ui
