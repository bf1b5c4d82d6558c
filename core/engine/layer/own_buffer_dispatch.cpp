// The dispatchers that compute on the rank's own buffer: no tokens travel.
#include <algorithm>

#include "layer/token_dispatcher.h"
#include "trace/phase_timer.h"

namespace moe::layer {

namespace {

// Across ranks only the first slots of a rank's buffer, as many as its largest share, hold tokens
// (the rest pad for other ranks' shares): `fn` runs on those, and the output is padded back with
// zeros, which the combine never reads.
template <class Fn>
at::Tensor on_own_slots(const at::Tensor& dispatched, const std::vector<int64_t>& rank_shares,
                        int64_t rank, Fn&& fn) {
  const int64_t E = dispatched.size(0), C = dispatched.size(1);
  if (static_cast<int64_t>(rank_shares.size()) < (rank + 1) * E) return fn(dispatched);
  const auto mine = rank_shares.begin() + rank * E;
  const int64_t used = std::max<int64_t>(1, *std::max_element(mine, mine + E));
  if (used >= C) return fn(dispatched);
  return at::constant_pad_nd(fn(dispatched.narrow(1, 0, used)), {0, 0, 0, C - used});
}

int64_t rank_of(const ExpertPlacementOnGroup& p) {
  return p.group ? p.group->rank() : 0;
}

}  // namespace

at::Tensor LocalDispatcher::run(const at::Tensor& dispatched, ExpertsImpl& experts,
                                const ExpertPlacementOnGroup& p, const RoutingPlan& plan) const {
  trace::ScopedPhase phase("experts");
  return on_own_slots(dispatched, plan.rank_shares, rank_of(p),
                      [&](const at::Tensor& x) { return experts.forward(x); });
}

at::Tensor GatheredWeightsDispatcher::run(const at::Tensor& dispatched, ExpertsImpl& experts,
                                          const ExpertPlacementOnGroup& p,
                                          const RoutingPlan& plan) const {
  const auto whole = gathered_weights(experts, p);
  trace::ScopedPhase phase("experts");
  return on_own_slots(dispatched, plan.rank_shares, rank_of(p),
                      [&](const at::Tensor& x) { return experts.forward_with(x, whole); });
}

}  // namespace moe::layer
