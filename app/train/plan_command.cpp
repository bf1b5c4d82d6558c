// moe-train plan --config FILE|NAME [--profile NAME|FILE] [--nodes K] [--nproc-per-node N]
// [--max-ranks R] [--json OUT]: predicted memory, communication and step time of the config on a
// cluster (docs/PLANNER.md). With --nproc-per-node, every valid r on that layout; without, the
// best layout at each size from 1 to --max-ranks (1024) ranks. With --decode [--batch B,...]
// [--context L] [--devices D] [--dtype T]: a decoder's decode speed and inference memory on the
// profile, or on every shipped device profile when --profile is not given.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "plan/decode_estimate.h"
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
  bool decode = false, profile_given = false;
  std::vector<int64_t> batches{1, 8, 32, 256};
  int64_t context = 2048, devices = 1;
  std::string dtype;
};

plan::HardwareProfile load_profile(const std::string& name) {
  try {
    return plan::load_profile(name);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("--profile: ") + e.what());
  }
}

// The decode table: a row per profile and batch size.
int run_decode(const PlanOptions& o, const protocol::RunConfig& config) {
  if (config.model.kind != protocol::ModelKind::Decoder) {
    throw InputError(o.config + ": --decode plans a decoder (model.kind \"decoder\")");
  }
  std::vector<std::string> profiles{o.profile};
  if (!o.profile_given) profiles = plan::shipped_profile_names();
  std::vector<plan::DecodePrediction> predictions;
  std::vector<std::string> names;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& name : profiles) {
    const plan::HardwareProfile profile = load_profile(name);
    for (int64_t batch : o.batches) {
      try {
        predictions.push_back(
            plan::predict_decode(config, profile, {batch, o.context, o.devices, o.dtype}));
      } catch (const std::invalid_argument& e) {
        throw InputError(std::string("--decode: ") + e.what());
      }
      names.push_back(name);
      rows.push_back(plan::decode_json(predictions.back(), name));
    }
  }
  print_decode(std::cout, predictions, names);
  if (!o.json_out.empty()) write_file_whole(o.json_out, rows.dump(2) + "\n", "--json");
  return kExitOk;
}

int run_plan(const PlanOptions& o) {
  if (o.decode) return run_decode(o, load_plan_config(o.config, o.overrides));
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
  auto* profile =
      cmd->add_option("--profile", o->profile,
                      "Hardware profile: a shipped name (h100-sxm, h100-sxm+ib-hdr, ...) or a file "
                      "from `moe-train bench --calibrate` (default h100-sxm)");
  cmd->add_option("--nodes", o->nodes, "Nodes (default: as many as the ranks need)");
  cmd->add_option("--nproc-per-node", o->nproc_per_node,
                  "Ranks per node: plan this layout only, for every valid r");
  cmd->add_option("--max-ranks", o->max_ranks, "Largest world of the scaling table (1024)");
  cmd->add_option("--json", o->json_out, "Write the layouts and the best one as JSON");
  cmd->add_flag("--decode", o->decode,
                "Predict decode tokens/s and inference memory instead (every shipped device "
                "profile unless --profile is given)");
  cmd->add_option("--batch", o->batches, "--decode: sequences decoded together (1,8,32,256)")
      ->delimiter(',')
      ->check(positive_number());
  cmd->add_option("--context", o->context, "--decode: positions in each sequence's cache")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--devices", o->devices, "--decode: devices sharing weights and cache")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--dtype", o->dtype, "--decode: weights' and cache's dtype (train.dtype)")
      ->check(CLI::IsMember({"float32", "bfloat16", "float16", "float64"}));
  return [o, profile]() {
    o->profile_given = profile->count() > 0;
    return run_plan(*o);
  };
}

}  // namespace moe::train
