#include "layer/aux_losses.h"

#include <cmath>

namespace moe::layer {

at::Tensor gshard_loss(const at::Tensor& scores, const at::Tensor& counts0, int64_t group_tokens) {
  const int64_t N = scores.size(0), E = scores.size(1);
  if (N == 0 || group_tokens == 0) return at::zeros({}, scores.options());
  auto importance = scores.mean(0);
  auto first_share = counts0.to(scores.scalar_type()) / static_cast<double>(group_tokens);
  return (importance * first_share).sum() * static_cast<double>(E);
}

namespace {

// var / mean^2 with the unbiased variance; 0 for a single expert, where balance is moot.
at::Tensor squared_cv(const at::Tensor& v) {
  if (v.numel() < 2) return at::zeros({}, v.options());
  return v.var() / (v.mean().pow(2) + 1e-10);
}

}  // namespace

at::Tensor load_importance_loss(const at::Tensor& clean_scores, const at::Tensor& noisy_logits,
                                double noise_std, int64_t top_k, const GroupSum& over_group) {
  TORCH_CHECK(noise_std > 0, "load_importance needs gate_noise > 0");
  const int64_t E = clean_scores.size(1);
  const int64_t k = std::min<int64_t>(top_k, E);
  auto importance = clean_scores.sum(0);
  // threshold[n]: the k-th largest noisy logit, the bar a score must clear to be chosen.
  auto threshold = std::get<0>(noisy_logits.topk(k, 1)).select(1, k - 1).unsqueeze(1).detach();
  auto z = (clean_scores - threshold) / (noise_std / static_cast<double>(E));
  auto load = (0.5 * (1.0 + at::erf(z / std::sqrt(2.0)))).sum(0);
  if (over_group) {
    importance = over_group(importance);
    load = over_group(load);
  }
  return (squared_cv(importance) + squared_cv(load)) / 2.0;
}

at::Tensor seq_balance_loss(const at::Tensor& scores, const at::Tensor& idx,
                            int64_t sequence_tokens) {
  const int64_t N = scores.size(0), E = scores.size(1), k = idx.size(0);
  if (N == 0) return at::zeros({}, scores.options());
  const int64_t T = sequence_tokens > 0 && N % sequence_tokens == 0 ? sequence_tokens : N;
  // choices [N, E]: how many of a token's k choices went to each expert (0 or 1)
  const auto choices =
      at::zeros({N, E}, scores.options())
          .scatter_add_(1, idx.t().to(at::kLong), at::ones({N, k}, scores.options()));
  const auto f = choices.view({N / T, T, E}).sum(1) * (static_cast<double>(E) / double(k * T));
  const auto p = scores.view({N / T, T, E}).mean(1);
  return (f * p).sum(1).mean();
}

at::Tensor router_z_loss(const at::Tensor& logits) {
  if (logits.size(0) == 0) return at::zeros({}, logits.options());
  return logits.logsumexp(1).pow(2).mean();
}

}  // namespace moe::layer
