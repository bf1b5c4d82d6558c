#include "moe/expert_ffn.h"

#include "moe/expert_rows.h"
#include "moe/optional_tensor.h"

namespace moe {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

struct ExpertFfnFunction : torch::autograd::Function<ExpertFfnFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor d, at::Tensor w1, at::Tensor b1,
                            at::Tensor w2, at::Tensor b2, int64_t act_code) {
    const auto act = static_cast<Activation>(act_code);
    d = d.contiguous();
    auto z = at::bmm(d, w1.transpose(1, 2));  // [E, C, H]
    auto a = at::empty_like(z);
    bias_activation_rows(z, b1, a, act);  // z += b1 (in place), a = act(z)
    auto y = at::bmm(a, w2);              // [E, C, M]
    add_bias_rows(y, b2);
    ctx->save_for_backward({d, w1, w2, z, a});
    ctx->saved_data["act"] = act_code;
    ctx->saved_data["b1"] = b1.numel() > 0;
    ctx->saved_data["b2"] = b2.numel() > 0;
    return y;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto saved = ctx->get_saved_variables();
    const auto &d = saved[0], &w1 = saved[1], &w2 = saved[2], &z = saved[3], &a = saved[4];
    const auto act = static_cast<Activation>(ctx->saved_data["act"].toInt());
    auto grad_y = grads[0].contiguous();

    at::Tensor grad_b2, grad_b1;
    if (ctx->saved_data["b2"].toBool()) grad_b2 = sum_rows(grad_y);
    at::Tensor grad_w2, grad_w1, grad_d;
    if (ctx->needs_input_grad(3)) grad_w2 = at::bmm(a.transpose(1, 2), grad_y);  // [E, H, M]
    auto grad_z = at::bmm(grad_y, w2.transpose(1, 2));  // [E, C, H], grad of a
    activation_backward_rows(grad_z, z, act);           // now the grad of z
    if (ctx->saved_data["b1"].toBool()) grad_b1 = sum_rows(grad_z);
    if (ctx->needs_input_grad(1)) grad_w1 = at::bmm(grad_z.transpose(1, 2), d);  // [E, H, M]
    if (ctx->needs_input_grad(0)) grad_d = at::bmm(grad_z, w1);                  // [E, C, M]
    return {grad_d, grad_w1, grad_b1, grad_w2, grad_b2, at::Tensor()};
  }
};

}  // namespace

at::Tensor expert_ffn(const at::Tensor& dispatched, const ExpertWeights& w, Activation act) {
  return ExpertFfnFunction::apply(dispatched, w.fc1_w, empty_if_undefined(w.fc1_b, w.fc1_w),
                                  w.fc2_w, empty_if_undefined(w.fc2_b, w.fc2_w),
                                  static_cast<int64_t>(act));
}

}  // namespace moe
