#include "layer/dispatch_function.h"

#include "layer/kernel_backend.h"
#include "layer/optional_tensor.h"
#include "trace/phase_timer.h"

namespace moe::layer {

namespace kn = moe::kernels;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

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
  return kn::RoutingView{device_ptr<const int32_t>(ctx->saved_data["idx"].toTensor()),
                         device_ptr<const int32_t>(ctx->saved_data["loc"].toTensor()),
                         device_ptr<const int64_t>(ctx->saved_data["slot_map"].toTensor()),
                         shape[0],
                         shape[1],
                         shape[2],
                         shape[3]};
}

// Dispatch and combine differ only in their output shape, their kernels and the phase name.
struct Dispatch {
  static constexpr const char* kBackwardPhase = "dispatch_backward";
  static std::vector<int64_t> output_shape(const RoutingPlan& p, int64_t M) {
    return {p.experts, p.capacity, M};
  }
  static constexpr auto forward = &kn::Backend::dispatch_forward;
  static constexpr auto backward = &kn::Backend::dispatch_backward;
};

struct Combine {
  static constexpr const char* kBackwardPhase = "combine_backward";
  static std::vector<int64_t> output_shape(const RoutingPlan& p, int64_t M) {
    return {p.tokens, M};
  }
  static constexpr auto forward = &kn::Backend::combine_forward;
  static constexpr auto backward = &kn::Backend::combine_backward;
};

// input -> output along the routing plan; gates [k, N] or empty for unit weights.
template <typename Direction>
struct RoutedCopyFunction : torch::autograd::Function<RoutedCopyFunction<Direction>> {
  static at::Tensor forward(AutogradContext* ctx, at::Tensor input, at::Tensor gates,
                            const RoutingPlan& plan) {
    input = input.contiguous();
    gates = undefined_if_empty(gates);
    const int64_t M = input.size(-1);
    auto out = at::empty(Direction::output_shape(plan, M), input.options());
    kn::Backend& backend = kernel_backend(input);
    const c10::DeviceGuard on_device(input.device());
    (backend.*Direction::forward)(kernel_dtype(input.scalar_type()), plan.view(), input.data_ptr(),
                                  device_ptr<const void>(gates), M, out.data_ptr(),
                                  kernel_stream(input));
    save_plan(ctx, plan);
    ctx->save_for_backward({input, empty_if_undefined(gates, input)});
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    trace::ScopedPhase phase(Direction::kBackwardPhase);
    auto saved = ctx->get_saved_variables();
    const auto& input = saved[0];
    const auto gates = undefined_if_empty(saved[1]);
    auto grad_out = grads[0].contiguous();
    const auto view = saved_view(ctx);
    at::Tensor grad_input, grad_gates;
    if (ctx->needs_input_grad(0)) grad_input = at::empty_like(input);
    if (gates.defined() && ctx->needs_input_grad(1)) grad_gates = at::empty_like(gates);
    kn::Backend& backend = kernel_backend(input);
    const c10::DeviceGuard on_device(input.device());
    (backend.*Direction::backward)(kernel_dtype(input.scalar_type()), view, grad_out.data_ptr(),
                                   input.data_ptr(), device_ptr<const void>(gates), input.size(-1),
                                   device_ptr<void>(grad_input), device_ptr<void>(grad_gates),
                                   kernel_stream(input));
    return {grad_input, grad_gates, at::Tensor()};
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
  return RoutedCopyFunction<Dispatch>::apply(x, empty_if_undefined(gates, x).contiguous(), plan);
}

at::Tensor combine_tokens(const at::Tensor& y, const at::Tensor& gates, const RoutingPlan& plan) {
  TORCH_CHECK(y.dim() == 3 && y.size(0) == plan.experts && y.size(1) == plan.capacity,
              "combine input must be [experts, capacity, dim]");
  check_gates(y, gates, plan);
  return RoutedCopyFunction<Combine>::apply(y, empty_if_undefined(gates, y).contiguous(), plan);
}

}  // namespace moe::layer
