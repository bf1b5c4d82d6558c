#include "moe/dispatch_function.h"

#include "moe/optional_tensor.h"
#include "moe_kernels/dispatch.h"
#include "telemetry/phase_timer.h"

namespace moe {

namespace kn = moe::kernels;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Calls fn with a typed null pointer for the kernel element type matching dtype.
template <typename Fn>
void with_kernel_type(at::ScalarType dtype, Fn&& fn) {
  switch (dtype) {
    case at::kFloat:
      return fn(static_cast<float*>(nullptr));
    case at::kDouble:
      return fn(static_cast<double*>(nullptr));
    case at::kBFloat16:
      return fn(static_cast<kn::bfloat16*>(nullptr));
    default:
      TORCH_CHECK(false, "MoE dispatch supports float32, float64 and bfloat16, got ", dtype);
  }
}

template <typename T>
T* ptr(const at::Tensor& t) {
  return t.defined() ? reinterpret_cast<T*>(t.data_ptr()) : nullptr;
}

void save_plan(AutogradContext* ctx, const RoutingPlan& plan) {
  ctx->saved_data["idx"] = plan.idx;
  ctx->saved_data["loc"] = plan.loc;
  ctx->saved_data["slot_map"] = plan.slot_map;
  ctx->saved_data["shape"] =
      std::vector<int64_t>{plan.tokens, plan.experts, plan.top_k, plan.capacity};
}

// Rebuilds the kernels' view of the plan saved by save_plan; the tensors stay owned by ctx.
kn::RoutingView saved_view(AutogradContext* ctx) {
  auto shape = ctx->saved_data["shape"].toIntVector();
  return kn::RoutingView{ctx->saved_data["idx"].toTensor().data_ptr<int32_t>(),
                         ctx->saved_data["loc"].toTensor().data_ptr<int32_t>(),
                         ctx->saved_data["slot_map"].toTensor().data_ptr<int64_t>(),
                         shape[0],
                         shape[1],
                         shape[2],
                         shape[3]};
}

struct DispatchFunction : torch::autograd::Function<DispatchFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor x, at::Tensor gates,
                            const RoutingPlan& plan) {
    x = x.contiguous();
    gates = undefined_if_empty(gates);
    const int64_t M = x.size(1);
    auto out = at::empty({plan.experts, plan.capacity, M}, x.options());
    const auto view = plan.view();
    with_kernel_type(x.scalar_type(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      kn::dispatch_forward<T>(view, ptr<T>(x), ptr<T>(gates), M, ptr<T>(out));
    });
    save_plan(ctx, plan);
    ctx->save_for_backward({x, empty_if_undefined(gates, x)});
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    ScopedPhase phase("dispatch_backward");
    auto saved = ctx->get_saved_variables();
    const auto& x = saved[0];
    const auto gates = undefined_if_empty(saved[1]);
    auto grad_buffer = grads[0].contiguous();
    const auto view = saved_view(ctx);
    at::Tensor grad_x;
    if (ctx->needs_input_grad(0)) grad_x = at::empty_like(x);
    at::Tensor grad_gates;
    if (gates.defined() && ctx->needs_input_grad(1)) grad_gates = at::empty_like(gates);
    with_kernel_type(x.scalar_type(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      kn::dispatch_backward<T>(view, ptr<T>(grad_buffer), ptr<T>(x), ptr<T>(gates), x.size(1),
                               ptr<T>(grad_x), ptr<T>(grad_gates));
    });
    return {grad_x, grad_gates, at::Tensor()};
  }
};

struct CombineFunction : torch::autograd::Function<CombineFunction> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor y, at::Tensor gates,
                            const RoutingPlan& plan) {
    y = y.contiguous();
    gates = undefined_if_empty(gates);
    const int64_t M = y.size(2);
    auto out = at::empty({plan.tokens, M}, y.options());
    const auto view = plan.view();
    with_kernel_type(y.scalar_type(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      kn::combine_forward<T>(view, ptr<T>(y), ptr<T>(gates), M, ptr<T>(out));
    });
    save_plan(ctx, plan);
    ctx->save_for_backward({y, empty_if_undefined(gates, y)});
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    ScopedPhase phase("combine_backward");
    auto saved = ctx->get_saved_variables();
    const auto& y = saved[0];
    const auto gates = undefined_if_empty(saved[1]);
    auto grad_out = grads[0].contiguous();
    const auto view = saved_view(ctx);
    at::Tensor grad_y;
    if (ctx->needs_input_grad(0)) grad_y = at::empty_like(y);
    at::Tensor grad_gates;
    if (gates.defined() && ctx->needs_input_grad(1)) grad_gates = at::empty_like(gates);
    with_kernel_type(y.scalar_type(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      kn::combine_backward<T>(view, ptr<T>(grad_out), ptr<T>(y), ptr<T>(gates), y.size(2),
                              ptr<T>(grad_y), ptr<T>(grad_gates));
    });
    return {grad_y, grad_gates, at::Tensor()};
  }
};

void check_gates(const at::Tensor& data, const at::Tensor& gates, const RoutingPlan& plan) {
  if (!gates.defined()) return;
  TORCH_CHECK(gates.scalar_type() == data.scalar_type(), "gate values must be in the data dtype");
  TORCH_CHECK(gates.dim() == 2 && gates.size(0) == plan.top_k && gates.size(1) == plan.tokens,
              "gate values must be [top_k, tokens]");
}

}  // namespace

at::Tensor dispatch_tokens(const at::Tensor& x, const at::Tensor& gates, const RoutingPlan& plan) {
  TORCH_CHECK(x.dim() == 2 && x.size(0) == plan.tokens, "dispatch input must be [tokens, dim]");
  check_gates(x, gates, plan);
  return DispatchFunction::apply(x, empty_if_undefined(gates, x).contiguous(), plan);
}

at::Tensor combine_tokens(const at::Tensor& y, const at::Tensor& gates, const RoutingPlan& plan) {
  TORCH_CHECK(y.dim() == 3 && y.size(0) == plan.experts && y.size(1) == plan.capacity,
              "combine input must be [experts, capacity, dim]");
  check_gates(y, gates, plan);
  return CombineFunction::apply(y, empty_if_undefined(gates, y).contiguous(), plan);
}

}  // namespace moe
