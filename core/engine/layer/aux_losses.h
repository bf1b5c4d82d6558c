#pragma once
// The auxiliary losses of docs/ROUTING.md, "Auxiliary losses". Each returns a 0-d tensor in its
// input's dtype.
#include <torch/torch.h>

#include <functional>

namespace moe::layer {

// E * sum_e P[e] * f[e]; P = mean score per expert over these scores' tokens, f = first-choice
// share counts0 [E] int64 / group_tokens. Across ranks, f comes from the whole group and P from
// this rank's tokens: the mean over ranks of this loss is then the loss of the concatenated batch
// (it is linear in P), and so are its gradients once the trainer averages them.
at::Tensor gshard_loss(const at::Tensor& scores, const at::Tensor& counts0, int64_t group_tokens);

// Sums a per-expert tensor over the ranks of a group (differentiably); empty on one process.
using GroupSum = std::function<at::Tensor(const at::Tensor&)>;

// (cv2(Importance) + cv2(Load)) / 2 with the noise-aware smooth load of Shazeer et al.
// clean_scores = softmax(logits); noisy_logits = logits + noise; noise_std = gate_noise.
// Across ranks, Importance and Load are summed over the group first (over_group), so every rank
// computes the loss of the concatenated batch.
at::Tensor load_importance_loss(const at::Tensor& clean_scores, const at::Tensor& noisy_logits,
                                double noise_std, int64_t top_k, const GroupSum& over_group = {});

// DeepSeek's sequence-wise balance loss: the mean over sequences of sum_e f[e] * P[e], where
// f[e] = E / (k T) * (choices of expert e among the sequence's T tokens) and P[e] its tokens'
// mean score. scores [N, E] (each row a distribution), idx [k, N] the choices; the N tokens are
// N / T sequences of T = sequence_tokens in order (0, or not dividing N: one sequence).
at::Tensor seq_balance_loss(const at::Tensor& scores, const at::Tensor& idx,
                            int64_t sequence_tokens);

// mean_n (logsumexp_e logits[n, e])^2
at::Tensor router_z_loss(const at::Tensor& logits);

}  // namespace moe::layer
