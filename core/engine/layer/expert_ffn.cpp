#include "layer/expert_ffn.h"

#include "layer/expert_rows.h"
#include "layer/optional_tensor.h"

namespace moe::layer {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

at::Tensor expert_ffn_forward(const at::Tensor& d_in, const ExpertWeights& w, Activation act,
                              ExpertFfnSaved& saved) {
  saved.d = d_in.contiguous();
  saved.z = at::bmm(saved.d, w.fc1_w.transpose(1, 2));  // [E, C, H]
  saved.a = at::empty_like(saved.z);
  bias_activation_rows(saved.z, w.fc1_b, saved.a, act);  // z += b1 (in place), a = act(z)
  auto y = at::bmm(saved.a, w.fc2_w);                    // [E, C, M]
  add_bias_rows(y, w.fc2_b);
  return y;
}

ExpertFfnGrads expert_ffn_backward(const at::Tensor& grad_y_in, const ExpertFfnSaved& s,
                                   const ExpertWeights& w, Activation act, bool want_input,
                                   bool want_weights) {
  ExpertFfnGrads g;
  const auto grad_y = grad_y_in.contiguous();
  if (w.fc2_b.defined() && w.fc2_b.numel() > 0) g.fc2_b = sum_rows(grad_y);
  if (want_weights) g.fc2_w = at::bmm(s.a.transpose(1, 2), grad_y);  // [E, H, M]
  auto grad_z = at::bmm(grad_y, w.fc2_w.transpose(1, 2));            // [E, C, H], grad of a
  activation_backward_rows(grad_z, s.z, act);                        // now the grad of z
  if (w.fc1_b.defined() && w.fc1_b.numel() > 0) g.fc1_b = sum_rows(grad_z);
  if (want_weights) g.fc1_w = at::bmm(grad_z.transpose(1, 2), s.d);  // [E, H, M]
  if (want_input) g.d = at::bmm(grad_z, w.fc1_w);                    // [E, C, M]
  return g;
}

namespace {

struct ExpertFfnFunction : torch::autograd::Function<ExpertFfnFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor d, at::Tensor w1, at::Tensor b1,
                            at::Tensor w2, at::Tensor b2, int64_t act_code) {
    ExpertFfnSaved saved;
    auto y = expert_ffn_forward(d, {w1, b1, w2, b2}, static_cast<Activation>(act_code), saved);
    ctx->save_for_backward({saved.d, w1, b1, w2, b2, saved.z, saved.a});
    ctx->saved_data["act"] = act_code;
    return y;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto v = ctx->get_saved_variables();
    const ExpertFfnSaved saved{v[0], v[5], v[6]};
    const ExpertWeights w{v[1], v[2], v[3], v[4]};
    const auto act = static_cast<Activation>(ctx->saved_data["act"].toInt());
    auto g = expert_ffn_backward(grads[0], saved, w, act, ctx->needs_input_grad(0),
                                 ctx->needs_input_grad(1) || ctx->needs_input_grad(3));
    return {g.d, g.fc1_w, g.fc1_b, g.fc2_w, g.fc2_b, at::Tensor()};
  }
};

}  // namespace

at::Tensor expert_ffn(const at::Tensor& dispatched, const ExpertWeights& w, Activation act) {
  return ExpertFfnFunction::apply(dispatched, w.fc1_w, empty_if_undefined(w.fc1_b, w.fc1_w),
                                  w.fc2_w, empty_if_undefined(w.fc2_b, w.fc2_w),
                                  static_cast<int64_t>(act));
}

}  // namespace moe::layer
