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

// The rows in use when LocalDispatcher runs the experts ragged (ragged_experts), else undefined.
at::Tensor ragged_rows(const at::Tensor& dispatched, const RoutingPlan& plan) {
  if (PaddedExpertsScope::active() || !plan.rank_shares.empty() || !plan.kept.defined() ||
      plan.kept.numel() != dispatched.size(0) ||
      !ragged_experts(plan.kept, plan.demand, dispatched.size(0) * dispatched.size(1),
                      dispatched.is_cpu() && plan.kept.is_cpu())) {
    return {};
  }
  return plan.kept.to(at::kLong).contiguous();
}

thread_local bool padded_experts = false;

}  // namespace

PaddedExpertsScope::PaddedExpertsScope() : previous_(padded_experts) {
  padded_experts = true;
}

PaddedExpertsScope::~PaddedExpertsScope() {
  padded_experts = previous_;
}

bool PaddedExpertsScope::active() {
  return padded_experts;
}

bool ragged_experts(const at::Tensor& kept, const at::Tensor& demand, int64_t buffer_rows,
                    bool cpu) {
  if (!cpu || !at::equal(kept, demand)) return false;
  return kept.sum().item<int64_t>() * 10 <= buffer_rows * 9;
}

at::Tensor LocalDispatcher::run(const at::Tensor& dispatched, ExpertsImpl& experts,
                                const ExpertPlacementOnGroup& p, const RoutingPlan& plan) const {
  trace::ScopedPhase phase("experts");
  if (const auto rows = ragged_rows(dispatched, plan); rows.defined()) {
    return experts.forward_rows(dispatched, rows);
  }
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
