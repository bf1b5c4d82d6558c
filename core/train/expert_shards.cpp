#include "train/expert_shards.h"

#include <stdexcept>

namespace moe::train {

bool ExpertShards::is_split(const std::string& tensor_name) const {
  for (const auto& name : names_) {
    // The parameter itself or its optimizer state ("<name>.exp_avg", "<name>.master"...).
    if (tensor_name == name ||
        (tensor_name.size() > name.size() && tensor_name.compare(0, name.size(), name) == 0 &&
         tensor_name[name.size()] == '.')) {
      return true;
    }
  }
  return false;
}

io::TensorMap ExpertShards::gather(const io::TensorMap& local, dist::ProcessGroup& group) const {
  io::TensorMap out;
  for (const auto& [name, t] : local) {
    if (!is_split(name) || group.is_single()) {
      out[name] = t;
      continue;
    }
    auto all = group.all_gather(t.contiguous());  // [W, count, ...]
    auto shape = t.sizes().vec();
    shape[0] *= group.world_size();
    out[name] = all.reshape(shape);
  }
  return out;
}

io::TensorMap ExpertShards::slice(const io::TensorMap& full) const {
  io::TensorMap out;
  for (const auto& [name, t] : full) {
    if (!is_split(name)) {
      out[name] = t;
      continue;
    }
    if (t.dim() == 0 || t.size(0) < first_ + count_) {
      throw std::invalid_argument("\"" + name + "\": " + std::to_string(t.dim() ? t.size(0) : 0) +
                                  " experts, this rank needs experts " + std::to_string(first_) +
                                  ".." + std::to_string(first_ + count_ - 1));
    }
    out[name] = t.narrow(0, first_, count_).contiguous();
  }
  return out;
}

}  // namespace moe::train
