#include "train/model_distribution.h"

#include "train/model_state.h"

namespace moe::train {

DistributedModel distribute_model(model::ModelImpl& model, dist::ProcessGroup& group,
                                  bool expert_parallel) {
  DistributedModel d;
  std::vector<std::string> split_prefixes;
  int64_t first = 0, count = 0;
  for (const auto& [prefix, layer] : moe_layers_by_prefix(model)) {
    layer->distribute(group, expert_parallel);
    if (!layer->placement().sharded) continue;
    split_prefixes.push_back(prefix + "experts.");
    first = layer->placement().first_expert;
    count = layer->placement().local_experts;
  }
  std::vector<std::string> split_names;
  for (const auto& p : model.named_parameters()) {
    if (!p.value().requires_grad()) continue;
    d.parameters.push_back({p.key(), p.value()});
    bool split = false;
    for (const auto& prefix : split_prefixes) split = split || p.key().rfind(prefix, 0) == 0;
    (split ? d.split : d.replicated).push_back(p.value());
    if (split) split_names.push_back(p.key());
  }
  if (!split_names.empty()) d.shards = ExpertShards(split_names, first, count);
  return d;
}

}  // namespace moe::train
