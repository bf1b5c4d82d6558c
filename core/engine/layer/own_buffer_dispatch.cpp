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

// The ragged path (expert_rows.h): on one process (a plan of this rank's tokens alone), on the
// CPU, with nothing dropped, expert e's tokens fill its first kept[e] slots and the buffer pads
// every expert to the largest demand (dropless routing). The rows in use, or undefined when
// there is no padding to skip (or the case is another: a GPU would have to wait for the counts).
at::Tensor ragged_rows(const at::Tensor& dispatched, const RoutingPlan& plan) {
  if (PaddedExpertsScope::active() || !plan.rank_shares.empty() || !dispatched.is_cpu() ||
      !plan.kept.defined() || !plan.kept.is_cpu()) {
    return {};
  }
  const auto kept = plan.kept.to(at::kLong).contiguous();
  if (kept.numel() != dispatched.size(0) || !at::equal(kept, plan.demand.to(at::kLong))) return {};
  const int64_t used = kept.sum().item<int64_t>();
  return used < dispatched.size(0) * dispatched.size(1) ? kept : at::Tensor();
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
