#include "layer/expert_partition.h"

#include <stdexcept>

namespace moe::layer {

ExpertPartition ExpertPartition::of(int64_t experts, int64_t hidden, int64_t world, int64_t rank) {
  ExpertPartition p;
  p.world = world;
  p.rank = rank;
  p.experts = experts;
  p.hidden = hidden;
  if (experts >= world) {
    if (experts % world != 0) {
      throw std::invalid_argument("expert parallelism over " + std::to_string(world) +
                                  " ranks needs a multiple of " + std::to_string(world) +
                                  " experts, got " + std::to_string(experts));
    }
    p.local_experts = experts / world;
  } else {
    if (world % experts != 0 || hidden % (world / experts) != 0) {
      throw std::invalid_argument(
          "sharding " + std::to_string(experts) + " experts over " + std::to_string(world) +
          " ranks needs ranks a multiple of experts and moe.hidden (" + std::to_string(hidden) +
          ") a multiple of " + std::to_string(world / experts));
    }
    p.shards = world / experts;
  }
  return p;
}

bool ExpertPartition::whole_in_shards(const std::string& parameter_name) {
  // The output biases (WeightRole::output_bias) of the FFN and the gated experts.
  for (const std::string suffix : {"batched_fc2_bias", "batched_down_bias"}) {
    if (parameter_name.size() >= suffix.size() &&
        parameter_name.compare(parameter_name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  }
  return false;
}

namespace {

// [E, ...] -> [W, local experts, ...] with the second dimension (hidden) split in shards.
std::vector<int64_t> parts_shape(const at::Tensor& full, const ExpertPartition& p) {
  std::vector<int64_t> shape{p.world, p.local_experts};
  for (int64_t d = 1; d < full.dim(); ++d) shape.push_back(full.size(d));
  if (full.dim() >= 2) shape[2] /= p.shards;
  return shape;
}

}  // namespace

at::Tensor ExpertPartition::part_of(const at::Tensor& full, bool whole) const {
  if (whole && shards > 1) return full.narrow(0, rank / shards, 1).contiguous();
  return full.reshape(parts_shape(full, *this))[rank].contiguous();
}

at::Tensor ExpertPartition::whole_from(const at::Tensor& gathered, bool whole) const {
  auto shape = gathered.sizes().vec();  // [W, local, rest...]
  shape.erase(shape.begin());
  if (whole && shards > 1) {
    // Every shard of an expert holds the same tensor: take the first shard's.
    shape[0] = experts;
    return gathered.reshape({experts, shards, -1}).select(1, 0).reshape(shape);
  }
  shape[0] = experts;
  if (shape.size() >= 2) shape[1] *= shards;
  return gathered.reshape(shape);
}

at::Tensor ExpertPartition::parts_of(const at::Tensor& full, bool whole) const {
  if (whole && shards > 1) return full.repeat_interleave(shards, 0).unsqueeze(1);
  return full.reshape(parts_shape(full, *this));
}

}  // namespace moe::layer
