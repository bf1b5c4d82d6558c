#include "plan/step_counts.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "moe_kernels/capacity.h"
#include "plan/attention_counts.h"
#include "plan/op_counts.h"
#include "protocol/decoder_layout.h"
#include "protocol/expert_flops.h"
#include "protocol/parallel_layout.h"

namespace moe::plan {
namespace {

using protocol::RunConfig;

constexpr double kBucketBytes = 25.0 * (1 << 20);  // core/engine/train/gradient_sync.h's buckets
// Collectives every step makes besides the gradients: the losses' sum, the stop flag, and with
// several ranks the ranks event's figures.
constexpr double kSmallCollectivesPerStep = 3;

// What the layer's placement on the layout means for one rank
// (core/engine/layer/expert_parallel.h).
struct Placement {
  int64_t world = 1, local_experts = 1, shards = 1;
  bool split = false;  // experts split over the ranks (expert_parallel with W > 1)
};

Placement placement_of(const RunConfig& c, const Layout& l) {
  const auto p = protocol::expert_placement(c.moe.experts, l.world(), c.parallel.expert_parallel);
  return {l.world(), p.local_experts, p.shards, c.parallel.expert_parallel && l.world() > 1};
}

// Slots per expert in one rank's buffer: the capacity rule on the rank's tokens with balanced
// demand standing in for the max (known only at run time), aligned as the engine aligns it.
int64_t rank_slots(const RunConfig& c, const Layout& l, const Placement& p, int64_t tokens) {
  const int64_t experts = c.moe.experts, k = std::min(c.moe.top_k, experts);
  const int64_t balanced = k * ((tokens + experts - 1) / experts);
  int64_t align = 1;
  if (p.split) align = (l.r >= 1 ? p.shards / l.r : 1) * l.overlap;
  return kernels::capacity_slots(c.moe.capacity_factor, tokens, experts, k, balanced, align);
}

void check_layout(const RunConfig& c, const Layout& l) {
  if (l.nodes < 1 || l.nproc_per_node < 1 || l.overlap < 1) {
    throw std::invalid_argument("layout: nodes, ranks per node and overlap must be >= 1");
  }
  const RunConfig placed = with_layout(c, l);
  const auto problems = protocol::layout_problems(placed, l.world());
  if (!problems.empty()) {
    throw std::invalid_argument(problems.front().pointer + ": " + problems.front().message);
  }
  const auto p = protocol::expert_placement(c.moe.experts, l.world(), c.parallel.expert_parallel);
  const auto valid = protocol::valid_adaptive_r(p);
  if (std::find(valid.begin(), valid.end(), l.r) == valid.end()) {
    throw std::invalid_argument("/parallel/adaptive_r: r = " + std::to_string(l.r) +
                                " is not admitted on " + std::to_string(l.world()) + " ranks");
  }
}

// Whether the first MoE layer's input needs a gradient: not in helloworld, where the layer takes
// the data itself (core/engine/model/helloworld_model.cpp), so backward skips the gradient of the
// dispatched tokens: the experts' input GEMM, the dispatch's backward, the gate's input gradient
// and the dispatch side's all-to-all.
bool moe_input_needs_grad(const RunConfig& c) {
  return c.model.kind != protocol::ModelKind::HelloWorld;
}

// Share of a rank's all-to-all bytes that goes to ranks of other nodes.
double inter_node_share(const Layout& l) {
  const double w = double(l.world());
  return w > 1 ? (w - double(l.nproc_per_node)) / (w - 1) : 0.0;
}

Collective collective(double bytes, double calls, const Layout& l) {
  return {bytes, bytes * inter_node_share(l), calls};
}

// The MoE layers' communication per micro-batch: tokens through the all-to-all, and expert
// weights gathered where a rank computes more than its own part (docs/ROUTING.md table).
void count_moe_communication(const RunConfig& c, const Layout& l, const Placement& p, StepCounts& s,
                             double layers, double tokens) {
  if (!p.split) return;
  const double w = double(l.world()), e = double(c.moe.experts), m = double(c.model.dim);
  const double elem = double(dtype_bytes(c.train.dtype)), cs = double(s.capacity_slots);
  const double k = double(std::min(c.moe.top_k, c.moe.experts));
  // Routing: every rank gathers the group's choices (k int32 per token) and sums the layer's load
  // metrics (core/engine/layer/moe_layer.cpp load_stats), both inside the gate.
  s.routing = collective(layers * (w - 1) * tokens * k * 4, layers * 2, l);
  if (l.r >= 1) {
    const double copies = p.shards > 1 ? double(l.r) : 1.0;  // a group's r ranks all get the slot
    const double there = (w - 1) / w * e * copies * cs * m * elem;
    const double calls = 2 * (p.shards > 1 ? 1.0 : double(l.overlap));
    s.a2a_forward = collective(layers * 2 * there, layers * calls, l);
    // Backward sends the outputs' gradients there, and the tokens' back where they need one.
    const double sides = moe_input_needs_grad(c) ? 1.0 : 0.5;
    s.a2a_backward = collective(layers * 2 * there * sides, layers * calls * sides, l);
  }
  const bool gathers = l.r == 0 || (p.shards > 1 && l.r < p.shards);
  if (!gathers) return;
  const double experts_bytes = expert_parameters(c) * elem;  // every expert, whole
  const double tensors = expert_tensors(c);
  s.gather_forward = collective(layers * (w - 1) / w * experts_bytes, layers * tensors, l);
  s.gather_backward = collective(layers * experts_bytes, layers * tensors, l);
}

// One micro-batch's forward work of the MoE layers on this rank.
void count_moe_compute(const RunConfig& c, const Layout& l, const Placement& p, StepCounts& s,
                       double layers, double tokens) {
  const double e = double(c.moe.experts), m = double(c.model.dim), h = double(c.moe.hidden);
  const double k = double(std::min(c.moe.top_k, c.moe.experts)), cs = double(s.capacity_slots);
  const double elem = double(dtype_bytes(c.train.dtype));
  const double gate_elem = c.moe.fp32_gate ? 4.0 : elem;
  s.gate.flops += layers * tokens * gate_forward_flops_per_token(c);
  s.gate.bytes += layers * (tokens * m * elem + kGateScoreTensors * tokens * e * gate_elem);
  s.gate.ops += layers * kGateOps;
  s.gate.m = int64_t(tokens), s.gate.k = c.model.dim, s.gate.n = c.moe.experts;
  // Dispatch zero-fills the [E, Cs, M] buffer and scatters k rows per token into it; combine
  // reads them back and sums k rows per token.
  const double slots_bytes = e * cs * m * elem, choice_bytes = tokens * k * m * elem;
  s.dispatch.bytes += layers * (2 * slots_bytes + 2 * choice_bytes);
  s.dispatch.ops += layers * kDispatchOps;
  s.combine.bytes += layers * (slots_bytes + 2 * choice_bytes + tokens * m * elem);
  s.combine.ops += layers * kCombineOps;
  // Every rank's expert work is E x Cs rows of fc1 and fc2 (glu: gate, up, down) whatever r
  // (docs/PLANNER.md).
  const double rows = e * cs, gemms = double(expert_ffn_gemms(c));
  s.experts.flops += layers * protocol::expert_train_flops(rows, 1, m, h) / 3 * gemms / 2;
  s.experts.bytes += layers * expert_hidden_passes(c) * rows * h * elem;
  s.experts.ops += layers * expert_ops(c);
  // The batched GEMM the engine runs (core/engine/layer/expert_parallel.cpp): sharded experts
  // compute one expert's hidden slice on every rank's rows; r = 1 its local experts on W ranks'
  // slots; r = 0, replicated experts and one rank every expert on this rank's slots.
  PhaseWork& x = s.experts;
  x.expert_ffn = true;
  x.k = c.model.dim;
  if (p.split && p.shards > 1 && l.r >= 1) {
    x.batch = 1, x.m = s.capacity_slots * l.world() * l.r / p.shards, x.n = c.moe.hidden / l.r;
  } else if (p.split && l.r >= 1) {
    x.batch = p.local_experts, x.m = s.capacity_slots * l.world(), x.n = c.moe.hidden;
  } else {
    x.batch = c.moe.experts, x.m = s.capacity_slots, x.n = c.moe.hidden;
  }
  x.m = std::max<int64_t>(x.m, 1);
}

// Forward work of everything else (attention, dense FFNs, embeddings, head, norms, the loss).
void count_dense(const RunConfig& c, StepCounts& s, double samples, double tokens) {
  const double moe_layers = double(moe_layer_count(c));
  const bool decoder = c.model.kind == protocol::ModelKind::Decoder;
  if (c.model.kind == protocol::ModelKind::Lm || decoder) {
    // QK^T and PV per head: [T, Dh] x [Dh, T] and back (the decoder's causal attention: the
    // lower triangle, config_estimates.h).
    const int64_t head_dim =
        decoder ? protocol::attention_head_dim(c.model) : c.model.dim / c.model.heads;
    PhaseWork& a = s.attention;
    a.flops = double(c.model.layers) * tokens * attention_score_flops_per_token(c);
    a.batch = int64_t(samples) * c.model.heads;
    a.m = c.model.seq_len, a.k = head_dim, a.n = c.model.seq_len;
  }
  s.other.flops += dense_forward_flops(c, samples) -
                   moe_layers * tokens * gate_forward_flops_per_token(c) - s.attention.flops;
  s.other.bytes += dense_elementwise_bytes(c, samples, tokens);
  s.other.ops += dense_ops(c);
  s.other.m = int64_t(tokens), s.other.k = c.model.dim;
  s.other.n = c.model.dim;
  if (c.model.kind == protocol::ModelKind::Lm) s.other.n = std::max(c.model.dim, c.moe.hidden);
  if (decoder) {  // the widest of the projections, the shared expert and the dense MLPs
    s.other.n = std::max(
        {c.model.dim, widest_attention_projection(c), c.moe.shared_hidden,
         moe_layers < double(c.model.layers) ? protocol::dense_mlp_hidden(c) : int64_t{0}});
  }
}

void count_backward(const RunConfig& c, StepCounts& s) {
  const bool input_grad = moe_input_needs_grad(c);
  for (const PhaseWork* f : {&s.gate, &s.dispatch, &s.combine, &s.other, &s.attention}) {
    if (f == &s.dispatch && !input_grad) continue;
    PhaseWork b = backward_of(*f);
    if (f == &s.gate && !input_grad) b.flops = f->flops;  // the gate weight's gradient only
    s.backward_parts.push_back(b);
    s.backward.flops += b.flops, s.backward.bytes += b.bytes, s.backward.ops += b.ops;
  }
  s.experts_backward = backward_of(s.experts);
  // The expert FFN's backward is two GEMMs per forward one (mlp four, glu six); without dX those
  // of the GEMMs that take the input (fc1; glu's gate and up) go.
  if (!input_grad) {
    const double backward_gemms = 2.0 * double(expert_ffn_gemms(c));
    s.experts_backward.flops *= (backward_gemms - double(expert_input_gemms(c))) / backward_gemms;
  }
}

void count_optimizer(const RunConfig& c, StepCounts& s, const RankEstimate& rank) {
  const double params = rank.parameters.total();
  const double elem = double(dtype_bytes(c.train.dtype));
  const bool masters = c.train.dtype == protocol::Dtype::BFloat16;
  const double state_elem = masters ? 4.0 : elem;
  const double states =
      c.train.optimizer == protocol::Optimizer::AdamW ? 2 : (c.train.momentum > 0 ? 1 : 0);
  // The update works in the states' dtype (float32 masters for bfloat16): the gradient is
  // converted to it, and the master copied back into the weight.
  double passes = c.train.optimizer == protocol::Optimizer::AdamW ? kAdamPasses : kSgdPasses;
  if (c.train.optimizer != protocol::Optimizer::AdamW && states > 0) passes += kMomentumPasses;
  s.optimizer.bytes = params * (passes * state_elem + (masters ? 2 * (elem + 4.0) : 0.0));
  s.optimizer.ops =
      parameter_tensors(c) * (c.train.optimizer == protocol::Optimizer::AdamW ? kAdamOps : kSgdOps);
}

void count_gradient_all_reduce(const RunConfig& c, const Layout& l, StepCounts& s,
                               const ConfigEstimates& whole, const RankEstimate& rank) {
  if (l.world() <= 1) return;
  const double elem = double(dtype_bytes(c.train.dtype));
  // Split experts' gradients come back through the all-to-all; everything else is averaged.
  const bool split = c.parallel.expert_parallel;
  const double replicated = split ? rank.parameters.dense : whole.parameters.total();
  const double bytes = replicated * elem;
  s.gradient_buckets = std::ceil(bytes / kBucketBytes);
  s.allreduce = {bytes, l.nodes > 1 ? bytes : 0.0, s.gradient_buckets + kSmallCollectivesPerStep};
}

}  // namespace

PhaseWork backward_of(const PhaseWork& f) {
  PhaseWork b = f;
  b.backward = true;
  b.flops = 2 * f.flops;
  b.bytes = kBackwardTrafficFactor * f.bytes;
  b.ops = kBackwardOpsFactor * f.ops;
  return b;
}

Layout config_layout(const RunConfig& c) {
  Layout l;
  l.nodes = c.parallel.nodes;
  l.nproc_per_node = c.parallel.nproc;
  l.r = c.parallel.adaptive_r < 0 ? 1 : c.parallel.adaptive_r;  // "auto" (-1): r = 1's figure
  l.overlap = c.parallel.a2a_overlap_degree;
  return l;
}

RunConfig with_layout(RunConfig c, const Layout& l) {
  c.parallel.nodes = l.nodes;
  c.parallel.nproc = l.nproc_per_node;
  c.parallel.adaptive_r = l.r;
  c.parallel.a2a_overlap_degree = l.overlap;
  return c;
}

StepCounts count_step(const RunConfig& config, const Layout& layout) {
  check_layout(config, layout);
  const RunConfig c = with_layout(config, layout);
  const ConfigEstimates whole = estimate(c);
  const Placement p = placement_of(c, layout);
  StepCounts s;
  s.layout = layout;
  s.tokens_per_step = whole.tokens_per_step;
  s.model_flops = whole.flops.total();
  const double samples = double(c.train.batch_size / layout.world());
  const double tokens = samples * double(whole.tokens_per_sample);
  s.capacity_slots = rank_slots(c, layout, p, int64_t(tokens));
  const double layers = double(whole.moe_layers);
  count_moe_compute(c, layout, p, s, layers, tokens);
  count_moe_communication(c, layout, p, s, layers, tokens);
  count_dense(c, s, samples, tokens);
  count_backward(c, s);
  // Everything above is one micro-batch: grad_accum of them make the step.
  const double micro = double(c.train.grad_accum);
  std::vector<PhaseWork*> works{&s.gate,  &s.dispatch,  &s.experts,  &s.combine,
                                &s.other, &s.attention, &s.backward, &s.experts_backward};
  for (PhaseWork& b : s.backward_parts) works.push_back(&b);
  for (PhaseWork* w : works) w->flops *= micro, w->bytes *= micro, w->ops *= micro;
  for (Collective* x :
       {&s.a2a_forward, &s.a2a_backward, &s.routing, &s.gather_forward, &s.gather_backward}) {
    x->bytes *= micro, x->inter_node_bytes *= micro, x->calls *= micro;
  }
  count_optimizer(c, s, whole.rank);
  count_gradient_all_reduce(c, layout, s, whole, whole.rank);
  s.memory = whole.rank.memory;
  const double expert_share = double(p.local_experts) / double(c.moe.experts) / double(p.shards);
  const double state_elem =
      c.train.dtype == protocol::Dtype::BFloat16 ? 4.0 : double(dtype_bytes(c.train.dtype));
  s.transient = kTransientTensors * largest_parameter_tensor(c, expert_share) * state_elem;
  s.buffers = buffer_bytes(c, layout.r, p.split, p.shards, double(s.capacity_slots));
  return s;
}

}  // namespace moe::plan
