// GluExpertsImpl (glu_experts.h).
#include "layer/glu_experts.h"

#include <cmath>

#include "layer/optional_tensor.h"

namespace moe::layer {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// weights() order
enum Slot { kGateW, kGateB, kUpW, kUpB, kDownW, kDownB };

at::Tensor activate(const at::Tensor& z, Activation act) {
  switch (act) {
    case Activation::Relu:
      return at::relu(z);
    case Activation::Silu:
      return at::silu(z);
    case Activation::Gelu:
      break;
  }
  return at::gelu(z);
}

// grad * act'(z)
at::Tensor activation_grad(const at::Tensor& grad, const at::Tensor& z, Activation act) {
  switch (act) {
    case Activation::Relu:
      return at::threshold_backward(grad, z, 0);
    case Activation::Silu:
      return at::silu_backward(grad, z);
    case Activation::Gelu:
      break;
  }
  return at::gelu_backward(grad, z);
}

// The gate's factor s of a = s * (u or u + 1): act(g), or g·sigmoid(alpha g) with g clamped.
at::Tensor gate_factor(const at::Tensor& g, const GluCombine& c) {
  if (c.limit <= 0) return activate(g, c.act);
  const auto clamped = g.clamp_max(c.limit);
  return clamped * at::sigmoid(clamped * c.alpha);
}

// The up projection's factor: u, or clamp(u, ±limit) + 1.
at::Tensor up_factor(const at::Tensor& u, const GluCombine& c) {
  if (c.limit <= 0) return u;
  return u.clamp(-c.limit, c.limit) + 1.0;
}

// dL/dg and dL/du of a = s(g) * t(u), from dL/da.
std::pair<at::Tensor, at::Tensor> combine_grads(const at::Tensor& grad_a, const at::Tensor& g,
                                                const at::Tensor& u, const at::Tensor& s,
                                                const GluCombine& c) {
  if (c.limit <= 0) return {activation_grad(grad_a * u, g, c.act), grad_a * s};
  const auto clamped = g.clamp_max(c.limit);
  const auto sig = at::sigmoid(clamped * c.alpha);
  // d/dx [x sigmoid(alpha x)] = sigmoid + alpha x sigmoid (1 - sigmoid); clamps pass inside.
  const auto ds = sig + clamped * sig * (1.0 - sig) * c.alpha;
  const auto grad_g = grad_a * up_factor(u, c) * ds * (g <= c.limit);
  const auto grad_u = grad_a * s * ((u >= -c.limit) & (u <= c.limit));
  return {grad_g, grad_u};
}

bool present(const at::Tensor& t) {
  return t.defined() && t.numel() > 0;
}

// z = d W^T (+ b): [E, C, M] x [E, H, M] -> [E, C, H]
at::Tensor project(const at::Tensor& d, const at::Tensor& w, const at::Tensor& b) {
  if (present(b)) return at::baddbmm(b.unsqueeze(1), d, w.transpose(1, 2));
  return at::bmm(d, w.transpose(1, 2));
}

// Saved: d, gate pre-activation, up, activated gate.
at::Tensor glu_forward(const at::Tensor& d_in, const std::vector<at::Tensor>& w,
                       const GluCombine& combine, ExpertsSaved& saved) {
  TORCH_CHECK(w.size() == 6, "gated experts take 6 weights, got ", w.size());
  const auto d = d_in.contiguous();
  auto g = project(d, w[kGateW], w[kGateB]);
  auto u = project(d, w[kUpW], w[kUpB]);
  auto s = gate_factor(g, combine);
  auto a = s * up_factor(u, combine);
  auto y = present(w[kDownB]) ? at::baddbmm(w[kDownB].unsqueeze(1), a, w[kDownW])
                              : at::bmm(a, w[kDownW]);
  saved = {d, g, u, s};
  return y;
}

std::vector<at::Tensor> glu_backward(const at::Tensor& grad_y_in, const ExpertsSaved& saved,
                                     const std::vector<at::Tensor>& w, const GluCombine& combine,
                                     bool want_input, bool want_weights) {
  const auto grad_y = grad_y_in.contiguous();
  const auto &d = saved.at(0), &g = saved.at(1), &u = saved.at(2), &s = saved.at(3);
  std::vector<at::Tensor> out(7);                                  // d, then the six weights
  const auto grad_a = at::bmm(grad_y, w[kDownW].transpose(1, 2));  // [E, C, H]
  const auto [grad_g, grad_u] = combine_grads(grad_a, g, u, s, combine);
  if (want_weights) {
    out[1 + kDownW] = at::bmm((s * up_factor(u, combine)).transpose(1, 2), grad_y);  // [E, H, M]
    out[1 + kGateW] = at::bmm(grad_g.transpose(1, 2), d);
    out[1 + kUpW] = at::bmm(grad_u.transpose(1, 2), d);
  }
  if (present(w[kDownB])) out[1 + kDownB] = grad_y.sum(1);
  if (present(w[kGateB])) out[1 + kGateB] = grad_g.sum(1);
  if (present(w[kUpB])) out[1 + kUpB] = grad_u.sum(1);
  if (want_input) out[0] = at::baddbmm(at::bmm(grad_g, w[kGateW]), grad_u, w[kUpW]);
  return out;
}

struct GluExpertsFunction : torch::autograd::Function<GluExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor d, at::Tensor gate_w,
                            at::Tensor gate_b, at::Tensor up_w, at::Tensor up_b, at::Tensor down_w,
                            at::Tensor down_b, int64_t act_code, double limit, double alpha) {
    ExpertsSaved saved;
    const std::vector<at::Tensor> w{gate_w, gate_b, up_w, up_b, down_w, down_b};
    const GluCombine combine{static_cast<Activation>(act_code), limit, alpha};
    auto y = glu_forward(d, w, combine, saved);
    std::vector<at::Tensor> keep = w;
    keep.insert(keep.end(), saved.begin(), saved.end());
    ctx->save_for_backward(keep);
    ctx->saved_data["act"] = act_code;
    ctx->saved_data["limit"] = limit;
    ctx->saved_data["alpha"] = alpha;
    return y;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto v = ctx->get_saved_variables();
    const std::vector<at::Tensor> w(v.begin(), v.begin() + 6);
    const ExpertsSaved saved(v.begin() + 6, v.end());
    const GluCombine combine{static_cast<Activation>(ctx->saved_data["act"].toInt()),
                             ctx->saved_data["limit"].toDouble(),
                             ctx->saved_data["alpha"].toDouble()};
    const bool want_weights =
        ctx->needs_input_grad(1) || ctx->needs_input_grad(3) || ctx->needs_input_grad(5);
    auto g = glu_backward(grads[0], saved, w, combine, ctx->needs_input_grad(0), want_weights);
    g.insert(g.end(), 3, at::Tensor());  // act_code, limit, alpha
    return g;
  }
};

}  // namespace

GluExpertsImpl::GluExpertsImpl(int64_t experts, int64_t model_dim, int64_t hidden,
                               GluCombine combine, bool gate_up_bias, bool down_bias)
    : combine_(combine) {
  // nn.Linear's default bounds per expert, as the FFN experts.
  const double b_in = 1.0 / std::sqrt(static_cast<double>(model_dim));
  const double b_out = 1.0 / std::sqrt(static_cast<double>(hidden));
  auto gate_w = torch::empty({experts, hidden, model_dim}).uniform_(-b_in, b_in);
  auto up_w = torch::empty({experts, hidden, model_dim}).uniform_(-b_in, b_in);
  auto down_w = torch::empty({experts, hidden, model_dim}).uniform_(-b_out, b_out);
  at::Tensor gate_b, up_b, down_b;
  if (gate_up_bias) {
    gate_b = torch::empty({experts, hidden}).uniform_(-b_in, b_in);
    up_b = torch::empty({experts, hidden}).uniform_(-b_in, b_in);
  }
  if (down_bias) down_b = torch::empty({experts, model_dim}).uniform_(-b_out, b_out);
  add_weight(kGateW, "batched_gate_w", gate_w, WeightRole::hidden_units);
  add_weight(kGateB, "batched_gate_bias", gate_b, WeightRole::hidden_units);
  add_weight(kUpW, "batched_up_w", up_w, WeightRole::hidden_units);
  add_weight(kUpB, "batched_up_bias", up_b, WeightRole::hidden_units);
  add_weight(kDownW, "batched_down_w", down_w, WeightRole::hidden_units);
  add_weight(kDownB, "batched_down_bias", down_b, WeightRole::output_bias);
}

at::Tensor GluExpertsImpl::forward_with(const at::Tensor& d,
                                        const std::vector<at::Tensor>& w) const {
  TORCH_CHECK(w.size() == 6, "gated experts take 6 weights, got ", w.size());
  const auto& like = w[kGateW];
  return GluExpertsFunction::apply(
      d, w[kGateW], empty_if_undefined(w[kGateB], like), w[kUpW], empty_if_undefined(w[kUpB], like),
      w[kDownW], empty_if_undefined(w[kDownB], like), static_cast<int64_t>(combine_.act),
      combine_.limit, combine_.alpha);
}

at::Tensor GluExpertsImpl::forward_saving(const at::Tensor& d, const std::vector<at::Tensor>& w,
                                          ExpertsSaved& saved) const {
  return glu_forward(d, w, combine_, saved);
}

std::vector<at::Tensor> GluExpertsImpl::backward(const at::Tensor& grad_y,
                                                 const ExpertsSaved& saved,
                                                 const std::vector<at::Tensor>& w, bool want_input,
                                                 bool want_weights) const {
  return glu_backward(grad_y, saved, w, combine_, want_input, want_weights);
}

}  // namespace moe::layer
