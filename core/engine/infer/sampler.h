#pragma once
// The next token from a position's logits (docs/INFERENCE.md, "Sampling"): the argmax, or a draw
// after temperature, top-k, top-p and min-p in that order (the order of transformers' generate),
// from a generator seeded once so that a seed reproduces a generation.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace moe::infer {

struct SamplingOptions {
  bool greedy = false;
  double temperature = 1.0;  // > 0
  int64_t top_k = 0;         // keep the k likeliest tokens (0: all)
  double top_p = 1.0;        // keep the likeliest tokens whose probabilities reach p (1: all)
  double min_p = 0.0;        // drop tokens below min_p times the likeliest one's probability
  uint64_t seed = 0;
};

class Sampler {
 public:
  explicit Sampler(const SamplingOptions& options);
  // logits [V] (any float dtype) -> the chosen token id.
  int64_t next(const at::Tensor& logits);
  // logits [B, V] -> each row's token, rows drawn in order.
  std::vector<int64_t> next_rows(const at::Tensor& logits);

 private:
  SamplingOptions options_;
  at::Generator generator_;
};

}  // namespace moe::infer
