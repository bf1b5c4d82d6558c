#pragma once
// Key/value caches for generation (docs/INFERENCE.md): each attention layer keeps what its past
// positions contribute to later queries, so that a decode step computes one position instead of
// the whole prefix. The tensors are allocated once, for the whole sequence, on the first append.
#include <torch/torch.h>

#include <initializer_list>
#include <vector>

#include "model/rotary.h"

namespace moe::model {

// One attention layer's cache: one or more streams (GQA: keys and values; MLA: the compressed
// latent and the shared rotary key), each with its positions along one dimension.
class KvCache {
 public:
  explicit KvCache(int64_t capacity) : capacity_(capacity) {}
  // Positions already held: the first new query's position.
  int64_t length() const { return length_; }
  // Writes `fresh` (one tensor per stream, the same number of positions along `dim`) after the
  // positions held and returns each stream's positions 0 .. length() (views of the cache).
  std::vector<at::Tensor> append(std::initializer_list<at::Tensor> fresh, int64_t dim);

 private:
  int64_t capacity_, length_ = 0;
  std::vector<at::Tensor> streams_;
};

// A decoder's caches, one per layer, and the rotary tables of every position up to capacity.
struct DecoderCache {
  DecoderCache(int64_t layers, int64_t capacity);
  int64_t capacity;
  std::vector<KvCache> layers;
  RotaryTables rotary;  // filled by the model on first use
  int64_t length() const { return layers.empty() ? 0 : layers.front().length(); }
};

}  // namespace moe::model
