#include "bench/naive_moe.h"

#include "moe_kernels/routing.h"

namespace moe::train {

namespace {

// combine[n, e, c]: the weight with which token n reads slot c of expert e (GShard's tensor).
at::Tensor combine_weights(const at::Tensor& scores, const protocol::MoeConfig& cfg,
                           at::ScalarType dtype) {
  const int64_t N = scores.size(0), E = scores.size(1);
  const int64_t k = std::min<int64_t>(cfg.top_k, E);
  auto [top_vals, top_idx] = scores.topk(k, 1);  // [N, k]
  if (cfg.normalize_gate && k > 1) top_vals = top_vals / top_vals.sum(1, true).clamp_min(1e-9);

  std::vector<at::Tensor> masks, locations;
  auto offset = at::zeros({E}, scores.options().dtype(at::kLong));
  for (int64_t j = 0; j < k; ++j) {
    auto mask = at::one_hot(top_idx.select(1, j), E);       // [N, E]
    locations.push_back(at::cumsum(mask, 0) - 1 + offset);  // slot if chosen
    offset = offset + mask.sum(0);
    masks.push_back(mask);
  }
  const int64_t capacity =
      kernels::capacity(cfg.capacity_factor, N, E, k, offset.max().item<int64_t>(), 1);
  auto combine = at::zeros({N, E, capacity}, scores.options().dtype(dtype));
  for (int64_t j = 0; j < k; ++j) {
    auto slot = (locations[j] * masks[j]).sum(1);  // [N]
    auto kept = (slot < capacity).to(dtype);
    auto slot_hot = at::one_hot(slot.clamp_max(std::max<int64_t>(capacity - 1, 0)), capacity);
    auto weight = (top_vals.select(1, j).to(dtype) * kept).view({N, 1, 1});
    combine = combine + weight * masks[j].to(dtype).unsqueeze(2) * slot_hot.to(dtype).unsqueeze(1);
  }
  return combine;
}

}  // namespace

at::Tensor naive_moe_forward(MoeLayerImpl& layer, const at::Tensor& x) {
  const auto& cfg = layer.config();
  auto logits = layer.gate().logits(cfg.fp32_gate ? x.to(at::kFloat) : x);
  auto scores = at::softmax(logits, 1);
  auto combine = combine_weights(scores, cfg, x.scalar_type());
  auto dispatch_mask = (combine != 0).to(x.scalar_type());
  auto dispatched = at::einsum("nec,nm->ecm", {cfg.postscore ? dispatch_mask : combine, x});
  auto expert_out = layer.experts().forward(dispatched);
  return at::einsum("nec,ecm->nm", {cfg.postscore ? combine : dispatch_mask, expert_out});
}

}  // namespace moe::train
