#pragma once
// The model on a process group: every MoE layer routes over the group's concatenated batch and,
// with parallel.expert_parallel and E % W == 0, keeps only this rank's E / W experts. What the
// trainer needs afterwards: the parameters for the optimizer, which of them are replicated (their
// gradients are averaged) and which are split (experts), and how checkpoints regather them.
#include <vector>

#include "dist/process_group.h"
#include "model/model.h"
#include "train/expert_shards.h"
#include "train/optimizer.h"

namespace moe::train {

struct DistributedModel {
  std::vector<NamedParameter> parameters;  // every trainable parameter, in the model's order
  std::vector<at::Tensor> replicated, split;
  std::vector<at::Tensor> split_copies;  // see GradientSync
  ExpertShards shards;
};

DistributedModel distribute_model(model::ModelImpl& model, dist::ProcessGroup& group,
                                  const protocol::ParallelConfig& parallel);

}  // namespace moe::train
