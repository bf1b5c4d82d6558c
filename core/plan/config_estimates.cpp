#include "plan/config_estimates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moe_kernels/capacity.h"
#include "plan/attention_counts.h"
#include "protocol/decoder_layout.h"
#include "protocol/expert_flops.h"

namespace moe::plan {
namespace {

using protocol::RunConfig;

// Mirrors core/engine/model/image_model.{h,cpp}: 4x4 patches, 10 classes, a 3x3 conv stem of
// max(dim / 2, 8) channels; CIFAR-10 images are 3x32x32, everything else 1x28x28.
constexpr int64_t kImagePatch = 4;
constexpr int64_t kImageClasses = 10;

struct ImageGeometry {
  double channels, size, stem, grid;
};

ImageGeometry image_geometry(const RunConfig& c) {
  const bool cifar = c.data.kind == protocol::DataKind::Cifar10;
  const int64_t size = cifar ? 32 : 28;
  return {cifar ? 3.0 : 1.0, double(size), double(std::max<int64_t>(c.model.dim / 2, 8)),
          double(size / kImagePatch)};
}

double gate_parameters(const RunConfig& c) {
  const double m = double(c.model.dim), e = double(c.moe.experts);
  if (c.moe.gate == protocol::Gate::Cosine) {
    const double d = double(c.moe.cosine_proj_dim);
    return d * m + d + d * e + 1;  // projector weight + bias, sim_matrix, temperature
  }
  return e * m + (c.moe.gate_bias ? e : 0);  // wg, its bias with moe.gate_bias (GPT-OSS)
}

bool is_decoder(const RunConfig& c) {
  return c.model.kind == protocol::ModelKind::Decoder;
}

// Blocks whose FFN is not an MoE layer (helloworld has none).
double dense_block_count(const RunConfig& c) {
  if (c.model.kind == protocol::ModelKind::HelloWorld) return 0;
  return double(c.model.layers - moe_layer_count(c));
}

}  // namespace

double expert_parameters(const RunConfig& c) {
  const double m = double(c.model.dim), e = double(c.moe.experts), h = double(c.moe.hidden);
  const double gemms = double(expert_ffn_gemms(c)), inputs = double(expert_input_gemms(c));
  return gemms * e * h * m + (c.moe.fc1_bias ? inputs * e * h : 0) + (c.moe.fc2_bias ? e * m : 0);
}

int64_t expert_ffn_gemms(const RunConfig& c) {
  return c.moe.expert_ffn == protocol::ExpertFfn::Glu ? 3 : 2;
}

int64_t expert_input_gemms(const RunConfig& c) {
  return expert_ffn_gemms(c) - 1;
}

double shared_expert_parameters(const RunConfig& c) {
  if (!is_decoder(c) || c.moe.shared_hidden <= 0) return 0;
  const double m = double(c.model.dim), s = double(c.moe.shared_hidden);
  return 3 * s * m + (c.moe.shared_gate ? m : 0);
}

double shared_expert_forward_flops_per_token(const RunConfig& c) {
  if (!is_decoder(c) || c.moe.shared_hidden <= 0) return 0;
  const double m = double(c.model.dim), s = double(c.moe.shared_hidden);
  return 6 * m * s + (c.moe.shared_gate ? 2 * m : 0);
}

double attention_score_flops_per_token(const RunConfig& c) {
  const double t = double(c.model.seq_len);
  if (c.model.kind == protocol::ModelKind::Lm) return 4 * t * double(c.model.dim);
  if (is_decoder(c)) return causal_score_flops_per_token(c);
  return 0;
}

namespace {

double dense_ffn_parameters(const RunConfig& c) {
  const double m = double(c.model.dim);
  if (is_decoder(c)) return 3 * m * double(protocol::dense_mlp_hidden(c));  // gate, up, down
  const double h = double(c.moe.hidden);  // fc1 Linear(M, H) + fc2 Linear(H, M)
  return 2 * m * h + h + m;
}

}  // namespace

double gate_forward_flops_per_token(const RunConfig& c) {
  const double m = double(c.model.dim), e = double(c.moe.experts);
  if (c.moe.gate == protocol::Gate::Cosine) {
    const double d = double(c.moe.cosine_proj_dim);
    return 2 * d * m + 2 * d * e;
  }
  return 2 * e * m;
}

namespace {

double saturating_int(double v) {
  return std::min(v, double(std::numeric_limits<int64_t>::max() / 2));
}

}  // namespace

double dense_forward_flops(const RunConfig& c, double samples) {
  const double m = double(c.model.dim), h = double(c.moe.hidden);
  const double moe = double(moe_layer_count(c)), blocks = double(c.model.layers);
  const double dense_blocks = dense_block_count(c);
  const double tps = double(tokens_per_sample(c));
  if (is_decoder(c)) {
    const double v = double(c.model.vocab), dh = double(protocol::dense_mlp_hidden(c));
    const double per_token =
        blocks * (attention_projection_flops_per_token(c) + attention_score_flops_per_token(c)) +
        moe * (gate_forward_flops_per_token(c) + shared_expert_forward_flops_per_token(c)) +
        dense_blocks * 6 * m * dh + 2 * v * m;
    return samples * tps * per_token;
  }
  const double ffn_tokenwise = moe * gate_forward_flops_per_token(c) + dense_blocks * 4 * m * h;
  if (c.model.kind == protocol::ModelKind::Lm) {
    const double v = double(c.model.vocab);
    const double per_token =
        blocks * (2 * 4 * m * m + attention_score_flops_per_token(c)) + ffn_tokenwise + 2 * v * m;
    return samples * tps * per_token;
  }
  if (c.model.kind == protocol::ModelKind::Image) {
    const ImageGeometry g = image_geometry(c);
    const double pixels = g.size * g.size, tokens = g.grid * g.grid;
    const double per_sample = 2 * g.channels * 9 * g.stem * pixels +
                              2 * g.stem * kImagePatch * kImagePatch * m * tokens +
                              tokens * ffn_tokenwise + 2 * tokens * m * kImageClasses;
    return samples * per_sample;
  }
  return samples * tps * ffn_tokenwise;  // helloworld: the gate
}

namespace {

// C as the estimates use it: balanced demand stands in for the max demand, which is known only at
// run time.
double expected_slots(const CapacityEstimate& cap, int64_t experts) {
  const double balanced = double(cap.top_k) * std::ceil(double(cap.tokens) / double(experts));
  double slots = double(cap.count);
  if (cap.kind == CapacityEstimate::Kind::kDropless) slots = balanced;
  if (cap.kind == CapacityEstimate::Kind::kBounded) slots = std::min(slots, balanced);
  return slots;
}

// Weights and gradients in the model dtype; bfloat16 adds float32 master weights, and the
// optimizer's states then live in float32 too (core/engine/train/optimizer.cpp).
MemoryEstimate state_memory(const RunConfig& c, double params) {
  MemoryEstimate m;
  const double elem = double(dtype_bytes(c.train.dtype));
  const bool masters = c.train.dtype == protocol::Dtype::BFloat16;
  const double state_elem = masters ? 4.0 : elem;
  m.weights = params * elem;
  m.gradients = params * elem;
  m.masters = masters ? params * 4.0 : 0.0;
  const double states =
      c.train.optimizer == protocol::Optimizer::AdamW ? 2 : (c.train.momentum > 0 ? 1 : 0);
  m.optimizer = params * state_elem * states;
  return m;
}

// What one rank holds and sends; with one rank, the whole run.
RankEstimate estimate_rank(const RunConfig& c, const ConfigEstimates& e) {
  RankEstimate r;
  r.world = world_size(c);
  r.placement = protocol::expert_placement(c.moe.experts, r.world, c.parallel.expert_parallel);
  const double share =
      double(r.placement.local_experts) / double(r.placement.experts) / double(r.placement.shards);
  r.parameters.experts = e.parameters.experts * share;
  r.parameters.dense = e.parameters.dense;  // replicated on every rank (data parallel)
  r.parameters.active = e.parameters.active;
  r.memory = state_memory(c, r.parameters.total());
  r.memory.activations = e.memory.activations;  // already one process's
  const int64_t adaptive_r = c.parallel.adaptive_r;
  if (adaptive_r != 0) {
    const double passes = double(c.train.grad_accum) * double(e.moe_layers);
    r.all_to_all_bytes = passes * all_to_all_bytes_per_layer(c, e.capacity);
    r.all_to_all_assumes_r1 = r.all_to_all_bytes > 0 && adaptive_r != 1;
  }
  return r;
}

// Activations saved for backward in one forward/backward pass of one process, in elements of the
// model dtype (the gate's in float32 when fp32_gate). A rough guide, not an allocator trace.
double activation_bytes(const RunConfig& c, const CapacityEstimate& cap) {
  const double elem = double(dtype_bytes(c.train.dtype));
  const double gate_elem = c.moe.fp32_gate ? 4.0 : elem;
  const double m = double(c.model.dim), h = double(c.moe.hidden), e = double(c.moe.experts);
  const double samples = std::ceil(double(c.train.batch_size) / double(world_size(c)));
  const double tokens = double(cap.tokens);  // this process's slice of the batch
  const double slot_count = expected_slots(cap, c.moe.experts);
  const double moe = double(moe_layer_count(c));
  // Layer input and output, gate logits / noisy logits / scores, the dispatched tokens, the
  // experts' hidden pre- and post-activation (glu: the gate's pre-activation, up and the
  // activated gate, core/engine/layer/glu_experts.cpp) and their output.
  const double hidden_saved = c.moe.expert_ffn == protocol::ExpertFfn::Glu ? 3 * h : 2 * h;
  const double moe_layer = elem * (2 * tokens * m + e * slot_count * (2 * m + hidden_saved)) +
                           gate_elem * 3 * tokens * e;
  double bytes = moe * moe_layer;
  const double dense_blocks = double(c.model.layers) - moe;
  const double dense_ffn = elem * tokens * (2 * h + m);
  if (is_decoder(c)) {
    const double t = double(c.model.seq_len), v = double(c.model.vocab);
    const double loss_elem = c.train.dtype == protocol::Dtype::Float64 ? 8.0 : 4.0;
    // Per block: the two RMSNorms' inputs and outputs and the residuals (5 M) and what the
    // attention saves (attention_counts.h). Scaled-dot-product attention keeps no T x T scores
    // but its log-sum-exp in float32; the explicit blocks keep their [T, T] boolean mask.
    const double per_token = 5 * m + attention_saved_elements_per_token(c);
    const double explicit_blocks = explicit_attention_blocks(c);
    const double sdpa_blocks = double(c.model.layers) - explicit_blocks;
    bytes += double(c.model.layers) * elem * tokens * per_token +
             sdpa_blocks * 4.0 * samples * double(c.model.heads) * t + explicit_blocks * t * t;
    // Shared experts: gate and up outputs, activation, product, output (and the scaled one).
    const double sh = double(c.moe.shared_hidden);
    if (c.moe.shared_hidden > 0) {
      bytes += moe * elem * tokens * (4 * sh + m + (c.moe.shared_gate ? m + 1 : 0));
    }
    const double dh = double(protocol::dense_mlp_hidden(c));
    bytes += dense_blocks * elem * tokens * (4 * dh + m);         // gated MLPs
    bytes += elem * tokens * 2 * m + loss_elem * tokens * v * 2;  // embedding, final norm, loss
    return bytes;
  }
  if (c.model.kind == protocol::ModelKind::Lm) {
    const double t = double(c.model.seq_len), v = double(c.model.vocab);
    const double heads = double(c.model.heads);
    const double loss_elem = c.train.dtype == protocol::Dtype::Float64 ? 8.0 : 4.0;
    // Norms, q/k/v, attention output and projection, residuals; scores and probabilities.
    bytes += double(c.model.layers) * elem * (tokens * 8 * m + samples * heads * t * t * 2);
    bytes += dense_blocks * dense_ffn + elem * tokens * m + loss_elem * tokens * v * 2;
  } else if (c.model.kind == protocol::ModelKind::Image) {
    const ImageGeometry g = image_geometry(c);
    const double pixels = g.size * g.size;
    bytes += elem * samples * pixels * (g.channels + 2 * g.stem) + elem * tokens * m * 2;
    bytes += double(c.model.layers) * elem * tokens * 2 * m + dense_blocks * dense_ffn;
  } else {
    bytes += elem * tokens * m;
  }
  return bytes;
}

}  // namespace

int64_t dtype_bytes(protocol::Dtype dtype) {
  if (dtype == protocol::Dtype::Float64) return 8;
  if (dtype == protocol::Dtype::BFloat16) return 2;
  return 4;  // float32, and float16, which the engine runs in float32 (model.cpp torch_dtype)
}

bool can_estimate(const RunConfig& c) {
  const auto& m = c.model;
  const auto& e = c.moe;
  const bool sizes = m.dim >= 1 && m.layers >= 1 && m.heads >= 1 && m.seq_len >= 1 &&
                     m.vocab >= 1 && e.experts >= 1 && e.top_k >= 1 && e.hidden >= 1 &&
                     e.cosine_proj_dim >= 1 && e.every >= 1 && c.train.batch_size >= 1 &&
                     c.train.grad_accum >= 1 && protocol::config_world(c.parallel) &&
                     c.parallel.a2a_overlap_degree >= 1 && std::isfinite(e.capacity_factor);
  if (!sizes || m.kind != protocol::ModelKind::Decoder) return sizes;
  const bool latent = m.attention != protocol::AttentionKind::Mla ||
                      (m.q_lora_rank >= 0 && m.kv_lora_rank >= 1 && m.qk_rope_dim >= 0 &&
                       m.qk_nope_dim >= 0 && m.v_head_dim >= 1);
  return latent && m.kv_heads >= 0 && m.head_dim >= 0 && m.dense_hidden >= 0 &&
         e.shared_hidden >= 0 && protocol::attention_head_dim(m) >= 1;
}

int64_t moe_layer_count(const RunConfig& c) {
  if (c.model.kind == protocol::ModelKind::HelloWorld) return 1;
  if (is_decoder(c)) {  // every block but model.dense_layers
    const auto mask = protocol::moe_layer_mask(c);
    return int64_t(std::count(mask.begin(), mask.end(), true));
  }
  return (c.model.layers + c.moe.every - 1) / c.moe.every;  // blocks 0, every, 2*every, ...
}

int64_t tokens_per_sample(const RunConfig& c) {
  if (c.model.kind == protocol::ModelKind::Image) {
    const int64_t grid = int64_t(image_geometry(c).grid);
    return grid * grid;
  }
  return c.model.seq_len;
}

ParameterEstimate estimate_parameters(const RunConfig& c) {
  ParameterEstimate p;
  const double moe = double(moe_layer_count(c));
  p.experts = moe * expert_parameters(c);
  const double m = double(c.model.dim), blocks = double(c.model.layers);
  const double gates = moe * gate_parameters(c);
  const double dense_ffns = (blocks - moe) * dense_ffn_parameters(c);
  const double norm = 2 * m;  // LayerNorm weight + bias
  if (is_decoder(c)) {
    // Token embedding; per block two RMSNorms (weight only) and the attention; the MoE layers'
    // gates and shared experts; the dense blocks' gated MLPs; the final RMSNorm; the lm head.
    const double v = double(c.model.vocab);
    p.dense = v * m + blocks * (2 * m + attention_parameters(c)) + gates +
              moe * shared_expert_parameters(c) + dense_ffns + m +
              (c.model.tie_embeddings ? 0 : v * m);
  } else if (c.model.kind == protocol::ModelKind::Lm) {
    const double v = double(c.model.vocab), t = double(c.model.seq_len);
    const double attention = (3 * m * m + 3 * m) + (m * m + m);  // qkv + proj, with biases
    p.dense = v * m + t * m + blocks * (2 * norm + attention) + gates + dense_ffns + norm +
              (c.model.tie_embeddings ? 0 : v * m);
  } else if (c.model.kind == protocol::ModelKind::Image) {
    const ImageGeometry g = image_geometry(c);
    const double tokens = g.grid * g.grid;
    const double stem = g.stem * g.channels * 9 + g.stem;
    const double patch = m * g.stem * kImagePatch * kImagePatch + m;
    const double head = kImageClasses * tokens * m + kImageClasses;
    p.dense = stem + patch + tokens * m + blocks * norm + gates + dense_ffns + norm + head;
  } else {
    p.dense = gates;  // helloworld: one MoE layer, nothing else
  }
  const double k = double(std::min(c.moe.top_k, c.moe.experts));
  p.active = p.dense + (c.moe.experts > 0 ? p.experts * k / double(c.moe.experts) : 0.0);
  return p;
}

int64_t capacity_slots(double factor, int64_t tokens, int64_t experts, int64_t top_k,
                       int64_t max_demand, int64_t alignment) {
  // The routing kernel's own rule, so the estimate is the engine's C.
  return kernels::capacity_slots(factor, tokens, experts, top_k, max_demand, alignment);
}

CapacityEstimate estimate_capacity(const RunConfig& c) {
  CapacityEstimate cap;
  const int64_t world = world_size(c), experts = c.moe.experts;
  cap.top_k = std::min(c.moe.top_k, experts);
  // Each rank routes its slice of the global batch. Experts split over the ranks align the
  // capacity to the sharding degree (W / E when E < W, Tutel) times the overlap degree, as the
  // engine's MoE layer does; replicated experts leave it alone.
  const double samples = std::ceil(double(c.train.batch_size) / double(world));
  cap.tokens = int64_t(saturating_int(samples * double(tokens_per_sample(c))));
  if (world > 1 && c.parallel.expert_parallel) {
    const int64_t shards =
        protocol::expert_placement(experts, world, c.parallel.expert_parallel).shards;
    cap.alignment = shards * c.parallel.a2a_overlap_degree;
  }
  const double f = c.moe.capacity_factor;
  if (f > 0) {
    cap.kind = CapacityEstimate::Kind::kFixed;
  } else if (f == 0) {
    cap.kind = CapacityEstimate::Kind::kDropless;
    return cap;
  } else {
    cap.kind = CapacityEstimate::Kind::kBounded;
  }
  // For the bound, an unlimited max demand leaves the factor's term.
  cap.count = capacity_slots(f, cap.tokens, experts, cap.top_k, std::numeric_limits<int64_t>::max(),
                             cap.alignment);
  return cap;
}

int64_t world_size(const RunConfig& c) {
  return protocol::config_world(c.parallel).value_or(1);
}

double all_to_all_bytes_per_layer(const RunConfig& c, const CapacityEstimate& cap) {
  const double w = double(world_size(c));
  if (w <= 1 || !c.parallel.expert_parallel) return 0;
  const double e = double(c.moe.experts), m = double(c.model.dim);
  const double elem = double(dtype_bytes(c.train.dtype));
  return 4 * (w - 1) / w * e * expected_slots(cap, c.moe.experts) * m * elem;
}

ConfigEstimates estimate(const RunConfig& c) {
  ConfigEstimates out;
  out.parameters = estimate_parameters(c);
  out.moe_layers = moe_layer_count(c);
  out.tokens_per_sample = tokens_per_sample(c);
  out.capacity = estimate_capacity(c);

  const double samples = double(c.train.batch_size) * double(c.train.grad_accum);
  out.tokens_per_step = samples * double(out.tokens_per_sample);
  const double k = double(out.capacity.top_k);
  // Tutel's count is of a two-GEMM FFN; glu runs three GEMMs of the same shape.
  out.flops.experts = double(out.moe_layers) *
                      protocol::expert_train_flops(out.tokens_per_step, k, double(c.model.dim),
                                                   double(c.moe.hidden)) *
                      double(expert_ffn_gemms(c)) / 2.0;
  out.flops.dense = 3 * dense_forward_flops(c, samples);
  const double elem = double(dtype_bytes(c.train.dtype)), layers = double(c.model.layers);
  if (c.model.kind == protocol::ModelKind::Lm) {
    out.kv_cache_bytes_per_token = layers * 2 * double(c.model.dim) * elem;
  } else if (is_decoder(c)) {
    out.kv_cache_bytes_per_token = layers * kv_cache_elements_per_token(c) * elem;
  }

  out.memory = state_memory(c, out.parameters.total());
  out.memory.activations = activation_bytes(c, out.capacity);
  out.rank = estimate_rank(c, out);
  return out;
}

}  // namespace moe::plan
