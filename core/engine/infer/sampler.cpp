#include "infer/sampler.h"

#include <ATen/CPUGeneratorImpl.h>

#include <limits>

namespace moe::infer {

Sampler::Sampler(const SamplingOptions& options)
    : options_(options), generator_(at::make_generator<at::CPUGeneratorImpl>(options.seed)) {}

int64_t Sampler::next(const at::Tensor& logits) {
  const auto scores = logits.to(at::kFloat).reshape({-1});
  if (options_.greedy) return scores.argmax().item<int64_t>();
  constexpr float kHidden = -std::numeric_limits<float>::infinity();
  auto z = scores / options_.temperature;
  const int64_t vocab = z.size(0);
  if (options_.top_k > 0 && options_.top_k < vocab) {
    const auto kth = std::get<0>(z.topk(options_.top_k)).min();
    z = z.masked_fill(z < kth, kHidden);
  }
  if (options_.top_p < 1.0) {
    // Sorted ascending, drop the tokens whose cumulative probability stays within 1 - p; the
    // likeliest token always stays.
    const auto [sorted, order] = z.sort(/*dim=*/0, /*descending=*/false);
    auto drop = sorted.softmax(0).cumsum(0) <= (1.0 - options_.top_p);
    drop.narrow(0, vocab - 1, 1).fill_(false);
    z = z.scatter(0, order, sorted.masked_fill(drop, kHidden));
  }
  if (options_.min_p > 0.0) {
    const auto probs = z.softmax(0);
    z = z.masked_fill(probs < probs.max() * options_.min_p, kHidden);
  }
  return at::multinomial(z.softmax(0), 1, /*replacement=*/false, generator_).item<int64_t>();
}

std::vector<int64_t> Sampler::next_rows(const at::Tensor& logits) {
  if (options_.greedy) {  // one argmax for every row
    const auto best = logits.to(at::kFloat).argmax(-1).to(at::kCPU).contiguous();
    return std::vector<int64_t>(best.data_ptr<int64_t>(), best.data_ptr<int64_t>() + best.numel());
  }
  std::vector<int64_t> out;
  for (int64_t r = 0; r < logits.size(0); ++r) out.push_back(next(logits[r]));
  return out;
}

}  // namespace moe::infer
