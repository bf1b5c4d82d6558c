#pragma once
// The auxiliary losses of docs/ROUTING.md, "Auxiliary losses". Each returns a 0-d tensor in its
// input's dtype.
#include <torch/torch.h>

namespace moe {

// E * sum_e P[e] * f[e]; P = mean score per expert, f = first-choice share (counts0 [E] int64).
at::Tensor gshard_loss(const at::Tensor& scores, const at::Tensor& counts0);

// (cv2(Importance) + cv2(Load)) / 2 with the noise-aware smooth load of Shazeer et al.
// clean_scores = softmax(logits); noisy_logits = logits + noise; noise_std = gate_noise.
at::Tensor load_importance_loss(const at::Tensor& clean_scores, const at::Tensor& noisy_logits,
                                double noise_std, int64_t top_k);

// mean_n (logsumexp_e logits[n, e])^2
at::Tensor router_z_loss(const at::Tensor& logits);

}  // namespace moe
