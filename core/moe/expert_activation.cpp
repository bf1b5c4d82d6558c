#include "moe/expert_activation.h"

#include "moe_kernels/threading.h"

namespace moe {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

constexpr int64_t kRowsPerChunk = 64;

// Calls fn(e, rows) for each run of rows [begin, end) of the [E*C, H] view inside one expert.
template <typename Fn>
void for_each_row_chunk(int64_t experts, int64_t capacity, Fn&& fn) {
  kernels::parallel_for(experts * capacity, kRowsPerChunk, [&](int64_t begin, int64_t end) {
    torch::NoGradGuard no_grad;  // grad mode is per thread; pool threads start with it on
    for (int64_t r = begin; r < end;) {
      const int64_t e = r / capacity;
      const int64_t stop = std::min(end, (e + 1) * capacity);
      fn(e, r - e * capacity, stop - e * capacity);
      r = stop;
    }
  });
}

void activation_out(at::Tensor& out, const at::Tensor& z, Activation act) {
  switch (act) {
    case Activation::gelu: at::gelu_out(out, z); break;
    case Activation::relu: at::clamp_min_out(out, z, 0); break;
    case Activation::silu: at::silu_out(out, z); break;
  }
}

void activation_backward_out(at::Tensor& grad_z, const at::Tensor& grad_a, const at::Tensor& z,
                             Activation act) {
  switch (act) {
    case Activation::gelu: at::gelu_backward_out(grad_z, grad_a, z); break;
    case Activation::relu: at::threshold_backward_out(grad_z, grad_a, z, 0); break;
    case Activation::silu: at::silu_backward_out(grad_z, grad_a, z); break;
  }
}

struct ExpertActivationFunction : torch::autograd::Function<ExpertActivationFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor pre, at::Tensor bias, int64_t act) {
    const int64_t E = pre.size(0), C = pre.size(1);
    const bool has_bias = bias.numel() > 0;
    auto z = has_bias ? at::empty_like(pre, at::MemoryFormat::Contiguous) : pre.contiguous();
    auto out = at::empty_like(z);
    for_each_row_chunk(E, C, [&](int64_t e, int64_t r0, int64_t r1) {
      auto zc = z[e].slice(0, r0, r1);
      if (has_bias) at::add_out(zc, pre[e].slice(0, r0, r1), bias[e]);
      auto oc = out[e].slice(0, r0, r1);
      activation_out(oc, zc, static_cast<Activation>(act));
    });
    ctx->save_for_backward({z});
    ctx->saved_data["act"] = act;
    ctx->saved_data["has_bias"] = has_bias;
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto z = ctx->get_saved_variables()[0];
    auto grad_a = grads[0].contiguous();
    const auto act = static_cast<Activation>(ctx->saved_data["act"].toInt());
    const int64_t E = z.size(0), C = z.size(1), H = z.size(2);
    auto grad_z = at::empty_like(z);
    for_each_row_chunk(E, C, [&](int64_t e, int64_t r0, int64_t r1) {
      auto gz = grad_z[e].slice(0, r0, r1);
      activation_backward_out(gz, grad_a[e].slice(0, r0, r1), z[e].slice(0, r0, r1), act);
    });
    at::Tensor grad_bias;
    if (ctx->saved_data["has_bias"].toBool()) {
      // Sum over the capacity rows, split by expert and column block so no two chunks share
      // an output element.
      constexpr int64_t kCols = 256;
      const int64_t blocks = (H + kCols - 1) / kCols;
      grad_bias = at::empty({E, H}, z.options());
      kernels::parallel_for(E * blocks, 1, [&](int64_t begin, int64_t end) {
        torch::NoGradGuard no_grad;
        for (int64_t i = begin; i < end; ++i) {
          const int64_t e = i / blocks, h0 = (i % blocks) * kCols, h1 = std::min(H, h0 + kCols);
          auto out = grad_bias[e].slice(0, h0, h1);
          at::sum_out(out, grad_z[e].slice(1, h0, h1), {0});
        }
      });
    }
    return {grad_z, grad_bias, at::Tensor()};
  }
};

}  // namespace

at::Tensor expert_activation(const at::Tensor& pre, const at::Tensor& bias, Activation act) {
  // 1.13's Function::apply rejects undefined tensors: no bias travels as an empty tensor.
  auto b = bias.defined() ? bias : at::empty({0}, pre.options());
  return ExpertActivationFunction::apply(pre, b, static_cast<int64_t>(act));
}

}  // namespace moe
