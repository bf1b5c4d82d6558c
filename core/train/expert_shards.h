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

namespace moe::train {

class ExpertShards {
 public:
  ExpertShards() = default;  // nothing split: gather and slice change nothing
  // split_names: the split parameters' names; this rank holds experts [first, first + count).
  ExpertShards(std::vector<std::string> split_names, int64_t first, int64_t count)
      : names_(std::move(split_names)), first_(first), count_(count) {}

  // Every rank calls it with its own tensors (the same names, in the map's order); the result is
  // the single-process layout on every rank.
  io::TensorMap gather(const io::TensorMap& local, dist::ProcessGroup& group) const;
  // This rank's rows of the split tensors in `full`; other tensors as they are.
  io::TensorMap slice(const io::TensorMap& full) const;

 private:
  bool is_split(const std::string& tensor_name) const;
  std::vector<std::string> names_;
  int64_t first_ = 0, count_ = 0;
};

}  // namespace moe::train
