#include "layer/expert_ffn.h"

#include "layer/expert_rows.h"
#include "layer/optional_tensor.h"

namespace moe::layer {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

at::Tensor expert_ffn_forward(const at::Tensor& d_in, const ExpertWeights& w, Activation act,
                              ExpertFfnSaved& saved, const at::Tensor& rows) {
  saved.d = d_in.contiguous();
  saved.rows = rows;
  saved.z = rows_times(saved.d, w.fc1_w.transpose(1, 2), rows);  // [E, C, H]
  saved.a = at::empty_like(saved.z);
  bias_activation_rows(saved.z, w.fc1_b, saved.a, act, rows);  // z += b1 (in place), a = act(z)
  auto y = rows_times(saved.a, w.fc2_w, rows);                 // [E, C, M]
  add_bias_rows(y, w.fc2_b, rows);
  return y;
}

ExpertFfnGrads expert_ffn_backward(const at::Tensor& grad_y_in, const ExpertFfnSaved& s,
                                   const ExpertWeights& w, Activation act, bool want_input,
                                   bool want_weights) {
  ExpertFfnGrads g;
  const auto grad_y = grad_y_in.contiguous();
  const auto& rows = s.rows;
  if (w.fc2_b.defined() && w.fc2_b.numel() > 0) g.fc2_b = sum_rows(grad_y, rows);
  if (want_weights) g.fc2_w = rows_t_times(s.a, grad_y, rows);      // [E, H, M]
  auto grad_z = rows_times(grad_y, w.fc2_w.transpose(1, 2), rows);  // [E, C, H], grad of a
  activation_backward_rows(grad_z, s.z, act, rows);                 // now the grad of z
  if (w.fc1_b.defined() && w.fc1_b.numel() > 0) g.fc1_b = sum_rows(grad_z, rows);
  if (want_weights) g.fc1_w = rows_t_times(grad_z, s.d, rows);  // [E, H, M]
  if (want_input) g.d = rows_times(grad_z, w.fc1_w, rows);      // [E, C, M]
  return g;
}

namespace {

struct ExpertFfnFunction : torch::autograd::Function<ExpertFfnFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor d, at::Tensor w1, at::Tensor b1,
                            at::Tensor w2, at::Tensor b2, int64_t act_code, at::Tensor rows) {
    ExpertFfnSaved saved;
    auto y = expert_ffn_forward(d, {w1, b1, w2, b2}, static_cast<Activation>(act_code), saved,
                                undefined_if_empty(rows));
    ctx->save_for_backward({saved.d, w1, b1, w2, b2, saved.z, saved.a});
    ctx->saved_data["rows"] = rows;
    ctx->saved_data["act"] = act_code;
    return y;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto v = ctx->get_saved_variables();
    const ExpertFfnSaved saved{v[0], v[5], v[6],
                               undefined_if_empty(ctx->saved_data["rows"].toTensor())};
    const ExpertWeights w{v[1], v[2], v[3], v[4]};
    const auto act = static_cast<Activation>(ctx->saved_data["act"].toInt());
    auto g = expert_ffn_backward(grads[0], saved, w, act, ctx->needs_input_grad(0),
                                 ctx->needs_input_grad(1) || ctx->needs_input_grad(3));
    return {g.d, g.fc1_w, g.fc1_b, g.fc2_w, g.fc2_b, at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor expert_ffn(const at::Tensor& dispatched, const ExpertWeights& w, Activation act,
                      const at::Tensor& rows) {
  return ExpertFfnFunction::apply(dispatched, w.fc1_w, empty_if_undefined(w.fc1_b, w.fc1_w),
                                  w.fc2_w, empty_if_undefined(w.fc2_b, w.fc2_w),
                                  static_cast<int64_t>(act), empty_if_undefined(rows, w.fc1_w));
}

}  // namespace moe::layer
