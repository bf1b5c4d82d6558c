#include "model/kv_cache.h"

#include <stdexcept>
#include <string>

namespace moe::model {

std::vector<at::Tensor> KvCache::append(std::initializer_list<at::Tensor> fresh, int64_t dim) {
  const int64_t count = fresh.begin()->size(dim);
  if (length_ + count > capacity_) {
    throw std::length_error("KV cache: " + std::to_string(length_ + count) +
                            " positions, capacity " + std::to_string(capacity_));
  }
  if (streams_.empty()) {
    for (const auto& t : fresh) {
      auto shape = t.sizes().vec();
      shape[static_cast<size_t>(dim)] = capacity_;
      streams_.push_back(at::empty(shape, t.options()));
    }
  }
  std::vector<at::Tensor> held;
  size_t i = 0;
  for (const auto& t : fresh) {
    auto& stream = streams_[i++];
    stream.narrow(dim, length_, count).copy_(t);
    held.push_back(stream.narrow(dim, 0, length_ + count));
  }
  length_ += count;
  return held;
}

DecoderCache::DecoderCache(int64_t layer_count, int64_t capacity_) : capacity(capacity_) {
  layers.reserve(static_cast<size_t>(layer_count));
  for (int64_t i = 0; i < layer_count; ++i) layers.emplace_back(capacity_);
}

}  // namespace moe::model
