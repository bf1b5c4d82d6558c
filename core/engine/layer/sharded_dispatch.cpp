#include "layer/token_dispatcher.h"
#include "trace/phase_timer.h"

namespace moe::layer {

at::Tensor ShardedDispatcher::run(const at::Tensor& dispatched, ExpertsImpl& experts,
                                  const ExpertPlacementOnGroup& p, const RoutingPlan&) const {
  const ExpertPartition& part = p.partition;
  const int64_t W = part.world, E = part.experts, s = part.shards, r = p.r, g = s / r;
  const int64_t C = dispatched.size(1), M = dispatched.size(2), chunk = C / g;
  TORCH_CHECK(C % g == 0, "slots per expert (", C, ") must split into ", g, " groups");
  // Rank q = (expert q / s, group (q % s) / r) receives that group's share of the expert's slots.
  std::vector<int64_t> rows(W);
  for (int64_t q = 0; q < W; ++q) rows[q] = (q / s) * g + (q % s) / r;
  // The index lives where the data does: index_select wants both on one device.
  const auto index = at::tensor(rows, at::kLong).to(dispatched.device());
  auto send = dispatched.reshape({E * g, chunk, M}).index_select(0, index);
  auto received = all_to_all(send, *p.group);  // [W sources, chunk, M]

  // This rank's hidden slice of width H / r: its own shard when r = s, else cut from the whole.
  const int64_t e = part.rank / s, slice = part.shard() % r, width = part.hidden / r;
  // Output biases are left out of the partial outputs and added once after their sum.
  const std::vector<WeightRole>& roles = experts.roles();
  const std::vector<at::Tensor> own = experts.weights();
  std::vector<at::Tensor> w = r == s ? own : gathered_weights(experts, p);
  for (size_t i = 0; i < w.size(); ++i) {
    if (roles[i] == WeightRole::output_bias) {
      w[i] = at::Tensor();
    } else if (r != s && w[i].defined()) {
      w[i] = w[i].narrow(0, e, 1).narrow(1, slice * width, width);
    }
  }
  at::Tensor partial;
  {
    trace::ScopedPhase phase("experts");
    partial = experts.forward_with(received.reshape({1, W * chunk, M}), w);
  }
  // Back where the tokens came from: the r partial outputs of each group summed, plus the biases.
  auto back = all_to_all(partial.reshape({W, chunk, M}), *p.group);
  auto out = back.reshape({E, g, r, chunk, M}).sum(2).reshape({E, C, M});
  for (size_t i = 0; i < own.size(); ++i) {
    if (roles[i] == WeightRole::output_bias && own[i].defined())
      out = out + gather_experts(own[i], p, true).unsqueeze(1);
  }
  return out;
}

}  // namespace moe::layer
