#include "train/model_distribution.h"

#include "train/model_state.h"

namespace moe::train {

DistributedModel distribute_model(model::ModelImpl& model, dist::ProcessGroup& group,
                                  const protocol::ParallelConfig& parallel) {
  DistributedModel d;
  std::vector<std::string> split_prefixes;
  layer::ExpertPartition partition;
  for (const auto& [prefix, layer] : moe_layers_by_prefix(model)) {
    layer->distribute(group, parallel.expert_parallel, parallel.a2a_overlap_degree);
    if (!layer->placement().sharded) continue;
    split_prefixes.push_back(prefix + "experts.");
    partition = layer->placement().partition;
  }
  std::vector<std::string> split_names;
  for (const auto& p : model.named_parameters()) {
    if (!p.value().requires_grad()) continue;
    d.parameters.push_back({p.key(), p.value()});
    bool split = false;
    for (const auto& prefix : split_prefixes) split = split || p.key().rfind(prefix, 0) == 0;
    if (!split) {
      d.replicated.push_back(p.value());
      continue;
    }
    split_names.push_back(p.key());
    // A sharded expert's fc2 bias is whole on each of its shards: the first one counts it.
    const bool copy = partition.shards > 1 && partition.shard() > 0 &&
                      layer::ExpertPartition::whole_in_shards(p.key());
    (copy ? d.split_copies : d.split).push_back(p.value());
  }
  if (!split_names.empty()) d.shards = ExpertShards(split_names, partition);
  return d;
}

}  // namespace moe::train
