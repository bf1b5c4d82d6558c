// Router (router.h): what every routing rule shares: the z-loss and the selection bias.
#include "layer/router.h"

#include "layer/aux_losses.h"
#include "layer/group_limited_router.h"
#include "layer/softmax_top_k_router.h"

namespace moe::layer {

Router::Router(const protocol::MoeConfig& config)
    : config_(config),
      selection_bias_(torch::zeros({config.experts})),
      pending_demand_(torch::zeros({config.experts}, at::kLong)) {}

at::Tensor Router::z_loss(const Routing& routing) const {
  return router_z_loss(routing.logits);
}

void Router::set_selection_bias(const at::Tensor& bias) {
  TORCH_CHECK(bias.dim() == 1 && bias.size(0) == config_.experts,
              "selection bias: expected shape [", config_.experts, "], got ", bias.sizes());
  selection_bias_ = bias.to(at::kFloat).contiguous().clone();
}

at::Tensor Router::bias_for_choice(const at::Device& device) {
  if (!config_.bias_balancing.enabled) return {};
  if (selection_bias_.device() != device) selection_bias_ = selection_bias_.to(device);
  return selection_bias_;
}

void Router::add_demand(const at::Tensor& demand) {
  if (pending_demand_.device() != demand.device())
    pending_demand_ = pending_demand_.to(demand.device());
  pending_demand_ += demand;
}

void Router::update_selection_bias() {
  if (!config_.bias_balancing.enabled) return;
  const auto demand = pending_demand_.to(at::kDouble);
  pending_demand_.zero_();
  const auto step = (demand.mean() - demand).sign() * config_.bias_balancing.rate;
  if (selection_bias_.device() != step.device())
    selection_bias_ = selection_bias_.to(step.device());
  selection_bias_ += step.to(at::kFloat);
}

std::unique_ptr<Router> make_router(int64_t model_dim, const protocol::MoeConfig& config) {
  switch (config.router) {
    case protocol::RouterKind::TopKSoftmax:
      return std::make_unique<TopKSoftmaxRouter>(model_dim, config);
    case protocol::RouterKind::GroupLimitedTopK:
      return std::make_unique<GroupLimitedRouter>(model_dim, config);
    case protocol::RouterKind::SoftmaxTopK:
      break;
  }
  return std::make_unique<SoftmaxTopKRouter>(model_dim, config);
}

}  // namespace moe::layer
