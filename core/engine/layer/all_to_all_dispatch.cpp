// The dispatchers that send tokens to whole experts on other ranks (r = 1, E >= W).
#include "layer/overlapped_experts.h"
#include "layer/ragged_exchange.h"
#include "layer/token_dispatcher.h"
#include "trace/phase_timer.h"

namespace moe::layer {

namespace {

void check_shares(const at::Tensor& dispatched, const ExpertPlacementOnGroup& p,
                  const RoutingPlan& plan) {
  TORCH_CHECK(
      static_cast<int64_t>(plan.rank_shares.size()) == p.group->world_size() * dispatched.size(0),
      "the all-to-all needs the group plan's shares of every rank");
}

}  // namespace

at::Tensor AllToAllDispatcher::run(const at::Tensor& dispatched, ExpertsImpl& experts,
                                   const ExpertPlacementOnGroup& p, const RoutingPlan& plan) const {
  check_shares(dispatched, p, plan);
  const int64_t E = dispatched.size(0), C = dispatched.size(1);
  const auto route = ragged_route(plan.rank_shares, p.group->world_size(), p.group->rank(), C, 0, 1,
                                  dispatched.device());
  auto mine = ragged_to_experts(dispatched, route, *p.group);  // [El, R, M]
  at::Tensor out;
  {
    trace::ScopedPhase phase("experts");
    out = experts.forward(mine);
  }
  return ragged_from_experts(out, route, *p.group, E, C);
}

at::Tensor OverlappedAllToAllDispatcher::run(const at::Tensor& dispatched, ExpertsImpl& experts,
                                             const ExpertPlacementOnGroup& p,
                                             const RoutingPlan& plan) const {
  check_shares(dispatched, p, plan);
  return overlapped_experts(dispatched, experts, *p.group, p.overlap_degree, plan.rank_shares);
}

}  // namespace moe::layer
