#pragma once
// Dispatch (encode) and combine (decode) of docs/ROUTING.md, "Dispatch, experts, combine" as
// autograd operations over the CPU kernels. Gradients flow to the data and to the gate values,
// never to the discrete plan.
#include <torch/torch.h>

#include "layer/routing_plan.h"

namespace moe::layer {

// x [N, M] -> D [E, C, M]. gates [k, N] in x's dtype, or undefined for unit weights.
at::Tensor dispatch_tokens(const at::Tensor& x, const at::Tensor& gates, const RoutingPlan& plan);

// Y [E, C, M] -> out [N, M]. gates [k, N] in Y's dtype, or undefined for unit weights.
at::Tensor combine_tokens(const at::Tensor& y, const at::Tensor& gates, const RoutingPlan& plan);

}  // namespace moe::layer
