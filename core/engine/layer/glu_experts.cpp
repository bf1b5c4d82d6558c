// GluExpertsImpl (glu_experts.h).
#include "layer/glu_experts.h"

#include <cmath>

#include "layer/expert_rows.h"
#include "layer/optional_tensor.h"

namespace moe::layer {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// weights() order
enum Slot { kGateW, kGateB, kUpW, kUpB, kDownW, kDownB };

// GPT-OSS's clamped combine (limit > 0), as ATen ops on one run of rows:
// a = s(g) * t(u) with s(g) = g·sigmoid(alpha g), g clamped at limit, and t(u) = clamp(u, ±limit)
// + 1. The plain combine act(g) * u is written out in combine_rows and combine_backward_rows.
at::Tensor gate_factor(const at::Tensor& g, const GluCombine& c) {
  const auto clamped = g.clamp_max(c.limit);
  return clamped * at::sigmoid(clamped * c.alpha);
}

at::Tensor up_factor(const at::Tensor& u, const GluCombine& c) {
  return u.clamp(-c.limit, c.limit) + 1.0;
}

// dL/dg and dL/du of the clamped a = s(g) * t(u), from dL/da.
std::pair<at::Tensor, at::Tensor> combine_grads(const at::Tensor& grad_a, const at::Tensor& g,
                                                const at::Tensor& u, const GluCombine& c) {
  const auto clamped = g.clamp_max(c.limit);
  const auto sig = at::sigmoid(clamped * c.alpha);
  // d/dx [x sigmoid(alpha x)] = sigmoid + alpha x sigmoid (1 - sigmoid); clamps pass inside.
  const auto ds = sig + clamped * sig * (1.0 - sig) * c.alpha;
  const auto grad_g = grad_a * up_factor(u, c) * ds * (g <= c.limit);
  const auto grad_u = grad_a * (clamped * sig) * ((u >= -c.limit) & (u <= c.limit));
  return {grad_g, grad_u};
}

bool present(const at::Tensor& t) {
  return t.defined() && t.numel() > 0;
}

// The rows [r0, r1) of expert e of an [E, C, X] buffer.
at::Tensor run_of(const at::Tensor& t, int64_t e, int64_t r0, int64_t r1) {
  return t[e].slice(0, r0, r1);
}

// In one pass over each run of rows (parallel_over): g += bg, u += bu (in place), then
// a = s(g) * t(u). The runs stay in cache between the steps.
void combine_rows(at::Tensor& g, const at::Tensor& bg, at::Tensor& u, const at::Tensor& bu,
                  at::Tensor& a, const GluCombine& c, const at::Tensor& rows) {
  for_each_row_run(g, rows, [&](int64_t e, int64_t r0, int64_t r1) {
    auto gc = run_of(g, e, r0, r1), uc = run_of(u, e, r0, r1), ac = run_of(a, e, r0, r1);
    if (present(bg)) gc.add_(bg[e]);
    if (present(bu)) uc.add_(bu[e]);
    if (c.limit > 0) {
      ac.copy_(gate_factor(gc, c) * up_factor(uc, c));
      return;
    }
    activation_out(ac, gc, c.act);
    ac.mul_(uc);
  });
}

// In one pass over each run of rows: grad_a becomes dL/dg (in place) and grad_u gets dL/du.
void combine_backward_rows(at::Tensor& grad_a, const at::Tensor& g, const at::Tensor& u,
                           at::Tensor& grad_u, const GluCombine& c, const at::Tensor& rows) {
  for_each_row_run(g, rows, [&](int64_t e, int64_t r0, int64_t r1) {
    auto ga = run_of(grad_a, e, r0, r1), gu = run_of(grad_u, e, r0, r1);
    const auto gc = run_of(g, e, r0, r1), uc = run_of(u, e, r0, r1);
    if (c.limit > 0) {
      const auto [dg, du] = combine_grads(ga, gc, uc, c);
      gu.copy_(du);
      ga.copy_(dg);
      return;
    }
    activation_out(gu, gc, c.act);  // dL/du = dL/da * act(g)
    gu.mul_(ga);
    ga.mul_(uc);  // dL/dg = dL/da * u * act'(g)
    activation_backward_in_place(ga, gc, c.act);
  });
}

// Saved: d, the gate and up projections (biases added), a (the down projection's input), and the
// rows in use (undefined: all). The gate's factor is recomputed in the backward pass.
at::Tensor glu_forward(const at::Tensor& d_in, const std::vector<at::Tensor>& w,
                       const GluCombine& combine, const at::Tensor& rows, ExpertsSaved& saved) {
  TORCH_CHECK(w.size() == 6, "gated experts take 6 weights, got ", w.size());
  const auto d = d_in.contiguous();
  auto g = rows_times(d, w[kGateW].transpose(1, 2), rows);  // [E, C, H]
  auto u = rows_times(d, w[kUpW].transpose(1, 2), rows);    // [E, C, H]
  auto a = at::empty_like(g);
  combine_rows(g, w[kGateB], u, w[kUpB], a, combine, rows);
  auto y = rows_times(a, w[kDownW], rows);  // [E, C, M]
  if (present(w[kDownB])) add_bias_rows(y, w[kDownB], rows);
  saved = {d, g, u, a};
  if (rows.defined()) saved.push_back(rows);
  return y;
}

std::vector<at::Tensor> glu_backward(const at::Tensor& grad_y_in, const ExpertsSaved& saved,
                                     const std::vector<at::Tensor>& w, const GluCombine& combine,
                                     bool want_input, bool want_weights) {
  const auto grad_y = grad_y_in.contiguous();
  const auto &d = saved.at(0), &g = saved.at(1), &u = saved.at(2), &a = saved.at(3);
  const at::Tensor rows = saved.size() > 4 ? saved[4] : at::Tensor();
  std::vector<at::Tensor> out(7);  // d, then the six weights
  if (present(w[kDownB])) out[1 + kDownB] = sum_rows(grad_y, rows);
  if (want_weights) out[1 + kDownW] = rows_t_times(a, grad_y, rows);  // [E, H, M]
  auto grad_g = rows_times(grad_y, w[kDownW].transpose(1, 2), rows);  // [E, C, H], dL/da so far
  auto grad_u = at::empty_like(grad_g);
  combine_backward_rows(grad_g, g, u, grad_u, combine, rows);
  if (present(w[kGateB])) out[1 + kGateB] = sum_rows(grad_g, rows);
  if (present(w[kUpB])) out[1 + kUpB] = sum_rows(grad_u, rows);
  if (want_weights) {
    out[1 + kGateW] = rows_t_times(grad_g, d, rows);  // [E, H, M]
    out[1 + kUpW] = rows_t_times(grad_u, d, rows);
  }
  if (want_input) {
    out[0] = rows_times(grad_g, w[kGateW], rows);  // [E, C, M]
    add_rows_times(out[0], grad_u, w[kUpW], rows);
  }
  return out;
}

struct GluExpertsFunction : torch::autograd::Function<GluExpertsFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor d, at::Tensor gate_w,
                            at::Tensor gate_b, at::Tensor up_w, at::Tensor up_b, at::Tensor down_w,
                            at::Tensor down_b, int64_t act_code, double limit, double alpha,
                            at::Tensor rows) {
    ExpertsSaved saved;
    const std::vector<at::Tensor> w{gate_w, gate_b, up_w, up_b, down_w, down_b};
    const GluCombine combine{static_cast<Activation>(act_code), limit, alpha};
    auto y = glu_forward(d, w, combine, undefined_if_empty(rows), saved);
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
    g.insert(g.end(), 4, at::Tensor());  // act_code, limit, alpha, rows
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

at::Tensor GluExpertsImpl::forward_with(const at::Tensor& d, const std::vector<at::Tensor>& w,
                                        const at::Tensor& rows) const {
  TORCH_CHECK(w.size() == 6, "gated experts take 6 weights, got ", w.size());
  const auto& like = w[kGateW];
  return GluExpertsFunction::apply(
      d, w[kGateW], empty_if_undefined(w[kGateB], like), w[kUpW], empty_if_undefined(w[kUpB], like),
      w[kDownW], empty_if_undefined(w[kDownB], like), static_cast<int64_t>(combine_.act),
      combine_.limit, combine_.alpha, empty_if_undefined(rows, like));
}

at::Tensor GluExpertsImpl::forward_saving(const at::Tensor& d, const std::vector<at::Tensor>& w,
                                          ExpertsSaved& saved) const {
  return glu_forward(d, w, combine_, at::Tensor(), saved);
}

std::vector<at::Tensor> GluExpertsImpl::backward(const at::Tensor& grad_y,
                                                 const ExpertsSaved& saved,
                                                 const std::vector<at::Tensor>& w, bool want_input,
                                                 bool want_weights) const {
  return glu_backward(grad_y, saved, w, combine_, want_input, want_weights);
}

}  // namespace moe::layer
