#pragma once
// Checkpoints keep the single-process layout whatever the number of ranks, so that a run saved on
// W ranks resumes on any other number. The tensors of split experts (the parameters under a
// sharded layer's "experts." and their optimizer state, "<param>.exp_avg"...) are gathered along
// their expert dimension before rank 0 writes, and every rank keeps its own experts' rows of what
// it reads.
#include <string>
#include <vector>

#include "dist/process_group.h"
#include "io/safetensors.h"
#include "layer/expert_partition.h"

namespace moe::train {

class ExpertShards {
 public:
  ExpertShards() = default;  // nothing split: gather and slice change nothing
  // split_names: the split parameters' names, split as `partition` says.
  ExpertShards(std::vector<std::string> split_names, const layer::ExpertPartition& partition)
      : names_(std::move(split_names)), partition_(partition) {}

  // Every rank calls it with its own tensors (the same names, in the map's order); the result is
  // the single-process layout on every rank.
  io::TensorMap gather(const io::TensorMap& local, dist::ProcessGroup& group) const;
  // This rank's rows of the split tensors in `full`; other tensors as they are.
  io::TensorMap slice(const io::TensorMap& full) const;

 private:
  // The split parameter `tensor_name` belongs to ("" for none).
  const std::string* split_parameter(const std::string& tensor_name) const;
  std::vector<std::string> names_;
  layer::ExpertPartition partition_;
};

}  // namespace moe::train
