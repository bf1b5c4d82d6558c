// moe-train plan --config FILE|NAME [--profile NAME|FILE] [--nodes K] [--nproc-per-node N]
// [--max-ranks R] [--json OUT]: predicted memory, communication and step time of the config on a
// cluster (docs/PLANNER.md). With --nproc-per-node, every valid r on that layout; without, the
// best layout at each size from 1 to --max-ranks (1024) ranks.
#include <iostream>

#include "commands.h"
#include "plan/hardware_profile.h"
#include "plan/layout_search.h"
#include "plan/plan_json.h"
#include "plan_config.h"
#include "plan_table.h"
#include "train/input_error.h"
#include "train/output_file.h"

namespace moe::train {
namespace {

struct PlanOptions {
  std::string config, profile = "h100-sxm", json_out;
  std::vector<std::string> overrides;
  int64_t nodes = 0, nproc_per_node = 0, max_ranks = 1024;
};

plan::HardwareProfile load_profile(const std::string& name) {
  try {
    return plan::load_profile(name);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("--profile: ") + e.what());
  }
}

int run_plan(const PlanOptions& o) {
  if (o.nodes < 0 || o.nproc_per_node < 0 || o.max_ranks < 1) {
    throw InputError("--nodes, --nproc-per-node and --max-ranks must be positive");
  }
  const protocol::RunConfig config = load_plan_config(o.config, o.overrides);
  const plan::HardwareProfile profile = load_profile(o.profile);
  std::vector<plan::LayoutPrediction> layouts;
  if (o.nproc_per_node > 0) {
    const int64_t nodes = o.nodes > 0 ? o.nodes : 1;
    layouts = plan::layouts_for(config, nodes, o.nproc_per_node, profile);
    if (layouts.empty()) throw InputError(layout_refusal(config, nodes, o.nproc_per_node));
  } else {
    layouts = plan::scaling_table(config, profile, o.max_ranks, o.nodes);
    if (layouts.empty())
      throw InputError("no layout up to " + std::to_string(o.max_ranks) + " ranks suits " +
                       o.config);
  }
  const auto best = plan::best_of(layouts);
  print_plan(std::cout, config, profile, layouts, *best, o.nproc_per_node > 0);
  if (!o.json_out.empty())
    write_file_whole(o.json_out, plan::plan_json(layouts, best, profile).dump(2) + "\n", "--json");
  return kExitOk;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "plan", "Predict memory, communication and step time of a config on a cluster");
  auto o = std::make_shared<PlanOptions>();
  cmd->add_option("--config", o->config,
                  "RunConfig JSON file, or a shipped model's name (deepseek-v3, mixtral-8x7b, "
                  "qwen3-30b-a3b)")
      ->required();
  cmd->add_option("--set", o->overrides, "Override a key: key.path=value (repeatable)");
  cmd->add_option("--profile", o->profile,
                  "Hardware profile: a shipped name (h100-sxm, h100-sxm+ib-hdr, ...) or a file "
                  "from `moe-train bench --calibrate` (default h100-sxm)");
  cmd->add_option("--nodes", o->nodes, "Nodes (default: as many as the ranks need)");
  cmd->add_option("--nproc-per-node", o->nproc_per_node,
                  "Ranks per node: plan this layout only, for every valid r");
  cmd->add_option("--max-ranks", o->max_ranks, "Largest world of the scaling table (1024)");
  cmd->add_option("--json", o->json_out, "Write the layouts and the best one as JSON");
  return [o]() { return run_plan(*o); };
}

}  // namespace moe::train
