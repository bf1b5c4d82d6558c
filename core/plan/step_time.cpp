#include "plan/step_time.h"

#include <algorithm>
#include <cmath>

namespace moe::plan {
namespace {

// The device's share one rank gets: ranks beyond the node's devices share them (a CPU's cores).
struct RankDevice {
  const HardwareProfile& profile;
  std::string dtype;
  double share = 1;  // ranks per device

  double seconds(const PhaseWork& w) const {
    double t = w.ops * profile.device.op_overhead_s;
    if (w.flops > 0) {
      const GemmQuery q{w.m, w.k, w.n, w.batch, int64_t(share), w.backward, w.expert_ffn};
      t += w.flops / profile.gemm_rate(q, dtype);
    }
    if (w.bytes > 0) t += w.bytes / profile.device.memory_bandwidth;
    return t * share;
  }
};

// The links of a layout: within a node, and between nodes when there are several.
struct Links {
  const LinkProfile& intra;
  const LinkProfile& inter;
  int64_t nodes, per_node, world;

  const LinkProfile& slowest() const { return nodes > 1 ? inter : intra; }

  // An all-to-all: latency per call, then the intra- and inter-node parts in parallel.
  double all_to_all(const Collective& c) const {
    if (c.calls <= 0) return 0;
    const double intra_bytes = c.bytes - c.inter_node_bytes;
    return c.calls * slowest().all_to_all_latency_s +
           std::max(intra_bytes / intra.all_to_all_bandwidth,
                    c.inter_node_bytes / inter.all_to_all_bandwidth);
  }

  // A ring all-reduce of c.bytes; over several nodes hierarchical: reduce-scatter within the
  // node, all-reduce of the node's 1/per_node share between nodes, all-gather within the node.
  double all_reduce(const Collective& c) const {
    if (c.calls <= 0 || world <= 1) return 0;
    const double latency = c.calls * slowest().all_reduce_latency_s;
    const double p = double(per_node), k = double(nodes);
    double t = 2 * (p - 1) / p * c.bytes / intra.all_reduce_bandwidth;
    if (nodes > 1) t += 2 * (k - 1) / k * (c.bytes / p) / inter.all_reduce_bandwidth;
    return latency + t;
  }
};

// Experts and their all-to-all cut into d chunks that overlap (docs/ROUTING.md, "Overlapping the
// all-to-all"): the longer of the two runs whole, the shorter only for one chunk.
double overlapped(double a2a, double experts, int64_t degree) {
  if (degree <= 1) return a2a + experts;
  return std::max(a2a, experts) + std::min(a2a, experts) / double(degree);
}

}  // namespace

StepPrediction predict_step(const StepCounts& s, const HardwareProfile& profile,
                            const std::string& dtype) {
  StepPrediction out;
  out.counts = s;
  const Layout& l = s.layout;
  out.ranks_per_device =
      std::max<int64_t>(1, (l.nproc_per_node + profile.device.devices_per_node - 1) /
                               profile.device.devices_per_node);
  const RankDevice device{profile, dtype, double(out.ranks_per_device)};
  const Links links{profile.intra_node_for(l.nproc_per_node), profile.inter_node, l.nodes,
                    l.nproc_per_node, l.world()};

  auto& ms = out.phases_ms;
  const double routing = 1e3 * links.all_to_all(s.routing);
  ms["gate"] = 1e3 * device.seconds(s.gate) + routing;
  ms["dispatch"] = 1e3 * device.seconds(s.dispatch);
  ms["combine"] = 1e3 * device.seconds(s.combine);
  ms["other"] = 1e3 * (device.seconds(s.other) + device.seconds(s.attention));
  ms["optimizer"] = 1e3 * device.seconds(s.optimizer);
  const double experts_fwd = 1e3 * device.seconds(s.experts);
  const double experts_bwd = 1e3 * device.seconds(s.experts_backward);
  const double a2a_fwd = 1e3 * links.all_to_all(s.a2a_forward);
  const double a2a_bwd = 1e3 * links.all_to_all(s.a2a_backward);
  // An all-gather's bytes (what arrives) go at the all-to-all's figures: every rank exchanges with
  // every other, as in an all-to-all (on loopback Gloo the two run alike, far below all-reduce).
  const double gather_fwd = 1e3 * links.all_to_all(s.gather_forward);
  const double gather_bwd = 1e3 * links.all_reduce(s.gather_backward);
  double rest_bwd = 0;  // each forward phase's backward at its own shape
  for (const PhaseWork& b : s.backward_parts) rest_bwd += 1e3 * device.seconds(b);

  // With overlap the experts' phase keeps its compute and a2a what is left uncovered.
  const double fwd_pair = overlapped(a2a_fwd, experts_fwd, l.overlap);
  const double bwd_pair = overlapped(a2a_bwd, experts_bwd, l.overlap);
  ms["experts"] = experts_fwd;
  ms["a2a"] = fwd_pair - experts_fwd + gather_fwd;
  ms["backward"] = rest_bwd + bwd_pair + gather_bwd;

  // Gradient buckets that fill during backward start at once and hide behind it; the last one
  // cannot (core/engine/train/gradient_sync.h), so one bucket hides nothing.
  const double allreduce = 1e3 * links.all_reduce(s.allreduce);
  const double buckets = std::max(1.0, s.gradient_buckets);
  const double hidden = buckets > 1 ? profile.allreduce_overlap * rest_bwd : 0.0;
  ms["allreduce"] = std::max(allreduce / buckets, allreduce - hidden);

  out.a2a_ms = ms["a2a"] + (bwd_pair - experts_bwd) + gather_bwd + routing;
  out.allreduce_ms = ms["allreduce"];
  out.step_ms = 0;
  for (const auto& [name, v] : ms) out.step_ms += v;
  out.compute_ms = out.step_ms - out.a2a_ms - out.allreduce_ms;
  out.tokens_per_s = out.step_ms > 0 ? s.tokens_per_step / (out.step_ms / 1e3) : 0;
  out.memory_bytes = s.memory_bytes() + profile.device.runtime_bytes;
  // Ranks sharing a device share its memory too.
  out.fits = out.memory_bytes * double(out.ranks_per_device) <= profile.device.memory_bytes;
  return out;
}

StepPrediction predict(const protocol::RunConfig& config, const Layout& layout,
                       const HardwareProfile& profile) {
  return predict_step(count_step(config, layout), profile, to_string(config.train.dtype));
}

}  // namespace moe::plan
