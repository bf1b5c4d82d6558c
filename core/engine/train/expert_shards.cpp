#include "train/expert_shards.h"

#include <stdexcept>

namespace moe::train {

const std::string* ExpertShards::split_parameter(const std::string& tensor_name) const {
  for (const auto& name : names_) {
    // The parameter itself or its optimizer state ("<name>.exp_avg", "<name>.master"...).
    if (tensor_name == name ||
        (tensor_name.size() > name.size() && tensor_name.compare(0, name.size(), name) == 0 &&
         tensor_name[name.size()] == '.')) {
      return &name;
    }
  }
  return nullptr;
}

io::TensorMap ExpertShards::gather(const io::TensorMap& local, dist::ProcessGroup& group) const {
  io::TensorMap out;
  for (const auto& [name, t] : local) {
    const std::string* parameter = split_parameter(name);
    if (!parameter || group.is_single()) {
      out[name] = t;
      continue;
    }
    out[name] = partition_.whole_from(group.all_gather(t.contiguous()),
                                      layer::ExpertPartition::whole_in_shards(*parameter));
  }
  return out;
}

io::TensorMap ExpertShards::slice(const io::TensorMap& full) const {
  io::TensorMap out;
  for (const auto& [name, t] : full) {
    const std::string* parameter = split_parameter(name);
    if (!parameter) {
      out[name] = t;
      continue;
    }
    if (t.dim() == 0 || t.size(0) != partition_.experts) {
      throw std::invalid_argument("\"" + name + "\": expected " +
                                  std::to_string(partition_.experts) + " experts, got shape " +
                                  c10::str(t.sizes()));
    }
    out[name] = partition_.part_of(t, layer::ExpertPartition::whole_in_shards(*parameter));
  }
  return out;
}

}  // namespace moe::train
