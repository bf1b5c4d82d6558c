#include "bench/naive_moe.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace moe::bench {

namespace {

at::Tensor param(layer::MoeLayerImpl& layer, const std::string& name, bool required = true) {
  auto params = layer.named_parameters();
  if (auto* p = params.find(name)) return *p;
  if (required) throw std::logic_error("naive baseline: the layer has no parameter " + name);
  return {};
}

at::Tensor gate_logits(layer::MoeLayerImpl& layer, const at::Tensor& x) {
  const auto& cfg = layer.config();
  auto xg = cfg.fp32_gate ? x.to(at::kFloat) : x;
  auto weight = [&](const char* name) { return param(layer, name).to(xg.scalar_type()); };
  if (cfg.gate == protocol::Gate::Top) return at::matmul(xg, weight("gates.0.wg.weight").t());
  // Cosine gate: normalised projection against normalised expert columns, times a temperature.
  auto proj = at::matmul(xg, weight("gates.0.cosine_projector.weight").t()) +
              weight("gates.0.cosine_projector.bias");
  auto tokens = proj / proj.norm(2, {1}, true).clamp_min(1e-12);
  auto sim = weight("gates.0.sim_matrix");
  auto experts = sim / sim.norm(2, {0}, true).clamp_min(1e-12);
  return at::matmul(tokens, experts) *
         weight("gates.0.temperature").clamp_max(std::log(100.0)).exp();
}

// Capacity as GShard and Tutel define it (factor > 0: k * floor(f * ceil(N / E)); 0: the largest
// demand; < 0: the largest demand, at most the factor's capacity). Computed here in plain torch
// ops on purpose, apart from the engine's own definition: the baseline shares no engine code, so
// a fault in the engine's capacity shows up as a cross-check difference instead of hiding.
int64_t naive_capacity(double factor, int64_t N, int64_t E, int64_t k, const at::Tensor& demand) {
  const auto opt = at::TensorOptions().dtype(at::kDouble);
  auto per_expert = at::ceil(at::scalar_tensor(static_cast<double>(N), opt) / E);
  auto by_factor = at::floor(per_expert * std::abs(factor)) * k;
  auto largest = demand.max().to(at::kDouble);
  auto c = factor > 0 ? by_factor : factor == 0 ? largest : at::minimum(largest, by_factor);
  return std::max<int64_t>(0, static_cast<int64_t>(c.item<double>()));
}

// GShard's dense routing tensors: combine[n, e, c] is the gate weight with which token n reads
// slot c of expert e, dispatch[n, e, c] is 1 where token n is copied into that slot.
struct DenseRouting {
  at::Tensor combine, dispatch;  // [N, E, C] in the data dtype
  int64_t capacity = 0;
};

DenseRouting dense_routing(const at::Tensor& scores, const protocol::MoeConfig& cfg,
                           at::ScalarType dtype) {
  const int64_t N = scores.size(0), E = scores.size(1);
  const int64_t k = std::min<int64_t>(cfg.top_k, E);
  const auto top_idx = std::get<1>(scores.topk(k, 1));  // [N, k]: choice j in column j

  std::vector<at::Tensor> masks, gates, positions;  // per choice: [N, E] one-hot, [N], [N, E]
  auto taken = at::zeros({1, E}, scores.options().dtype(at::kLong));  // slots of earlier choices
  for (int64_t j = 0; j < k; ++j) {
    masks.push_back(at::one_hot(top_idx.select(1, j), E));
    gates.push_back((scores * masks[j]).sum(1));
    // Choice j's slots follow every slot of the choices before it (GShard's locations2).
    positions.push_back(at::cumsum(masks[j], 0) - 1 + taken);
    taken = taken + masks[j].sum(0, true);
  }
  if (cfg.normalize_gate && k > 1) {
    auto total = gates[0];
    for (int64_t j = 1; j < k; ++j) total = total + gates[j];
    total = total.clamp_min(1e-9);  // the top-k of a softmax sum to at least k / E
    for (auto& g : gates) g = g / total;
  }

  DenseRouting r;
  r.capacity = naive_capacity(cfg.capacity_factor, N, E, k, taken.squeeze(0));
  const auto opt = scores.options().dtype(dtype);
  r.combine = at::zeros({N, E, r.capacity}, opt);
  r.dispatch = at::zeros({N, E, r.capacity}, opt);
  if (r.capacity == 0) return r;
  // Sum over the choices of (gate-weighted) kept mask [N, E, 1] x one-hot slot [N, 1, C],
  // accumulated in place: the dense tensors are the method, temporaries of their size are not.
  for (int64_t j = 0; j < k; ++j) {
    auto kept = masks[j] * (positions[j] < r.capacity);  // dropped past capacity
    auto slot = at::one_hot((positions[j] * kept).sum(1), r.capacity).to(dtype).unsqueeze(1);
    auto kept_w = kept.to(dtype).unsqueeze(2);
    r.dispatch.addcmul_(kept_w, slot);
    r.combine.addcmul_(kept_w * gates[j].to(dtype).view({N, 1, 1}), slot);
  }
  return r;
}

at::Tensor activation(const at::Tensor& h, protocol::Activation act) {
  switch (act) {
    case protocol::Activation::Gelu:
      return at::gelu(h);
    case protocol::Activation::Relu:
      return at::relu(h);
    case protocol::Activation::Silu:
      return at::silu(h);
  }
  throw std::invalid_argument("naive baseline: unknown activation");
}

// D[e] W[e]^T + b[e] for the experts' weight `w` and optional bias `b`, as an einsum.
at::Tensor project(layer::MoeLayerImpl& layer, const at::Tensor& d, const char* w, const char* b) {
  auto h = at::einsum("ecm,ehm->ech", {d, param(layer, w)});
  if (auto bias = param(layer, b, false); bias.defined()) h = h + bias.unsqueeze(1);
  return h;
}

// Y[e] = H[e] W[e] + b[e].
at::Tensor project_back(layer::MoeLayerImpl& layer, const at::Tensor& h, const char* w,
                        const char* b) {
  auto y = at::einsum("ech,ehm->ecm", {h, param(layer, w)});
  if (auto bias = param(layer, b, false); bias.defined()) y = y + bias.unsqueeze(1);
  return y;
}

// FFN: Y[e] = act(D[e] W1[e]^T + b1[e]) W2[e] + b2[e]; GLU: Y[e] = (act(D[e] G[e]^T + bg[e]) *
// (D[e] U[e]^T + bu[e])) W[e] + bw[e], or GPT-OSS's clamped form. Einsums and element-wise
// ops; autograd does the backward.
at::Tensor experts(layer::MoeLayerImpl& layer, const at::Tensor& d) {
  const auto& cfg = layer.config();
  if (cfg.expert_ffn == protocol::ExpertFfn::Mlp) {
    auto h = activation(project(layer, d, "experts.batched_fc1_w", "experts.batched_fc1_bias"),
                        cfg.activation);
    return project_back(layer, h, "experts.batched_fc2_w", "experts.batched_fc2_bias");
  }
  auto g = project(layer, d, "experts.batched_gate_w", "experts.batched_gate_bias");
  auto u = project(layer, d, "experts.batched_up_w", "experts.batched_up_bias");
  at::Tensor a;
  if (cfg.swiglu_limit > 0) {
    g = g.clamp_max(cfg.swiglu_limit);
    a = g * at::sigmoid(g * cfg.swiglu_alpha) * (u.clamp(-cfg.swiglu_limit, cfg.swiglu_limit) + 1);
  } else {
    a = activation(g, cfg.activation) * u;
  }
  return project_back(layer, a, "experts.batched_down_w", "experts.batched_down_bias");
}

}  // namespace

NaiveMoeOutput naive_moe_forward(layer::MoeLayerImpl& layer, const at::Tensor& x) {
  const auto& cfg = layer.config();
  auto scores = at::softmax(gate_logits(layer, x), 1);
  const auto routing = dense_routing(scores, cfg, x.scalar_type());
  // postscore weights the combine with the gates, prescore the dispatch.
  const auto& into = cfg.postscore ? routing.dispatch : routing.combine;
  const auto& out_of = cfg.postscore ? routing.combine : routing.dispatch;
  auto dispatched = at::einsum("nec,nm->ecm", {into, x});  // [E, C, M]
  auto expert_out = experts(layer, dispatched);
  return {at::einsum("nec,ecm->nm", {out_of, expert_out}), routing.capacity};
}

}  // namespace moe::bench
