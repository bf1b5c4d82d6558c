// Back-of-the-envelope figures for a RunConfig, shown beside the experiment form: parameters
// (experts vs dense, counted exactly as the engine's models register them), FLOPs per optimizer
// step, capacity per expert (docs/ROUTING.md, "Capacity"), memory, and with several ranks what
// one rank holds and sends. Pure C++ (no Qt, no Torch) so
// tests can check it against the engine. Figures are doubles: exact integers up to 2^53, and no
// overflow for the largest configs validation allows.
#pragma once

#include <cstdint>
#include <string>

#include "protocol/parallel_layout.h"
#include "protocol/run_config.h"

namespace moe::plan {

struct ParameterEstimate {
  double experts = 0;  // every MoE layer's expert weights and biases (batched_fc1_w, ...)
  // Everything else: gates, embeddings, attention, dense FFNs, norms, head, and the decoder's
  // shared experts (every token goes through them; every rank holds them whole).
  double dense = 0;
  // Parameters one token goes through: every dense parameter and k' of the E experts of each
  // MoE layer (dense + k'/E x experts), as the Hugging Face model cards count "active".
  double active = 0;
  double total() const { return experts + dense; }
};

// Slots per expert in one MoE layer call (docs/ROUTING.md, "Capacity").
struct CapacityEstimate {
  enum class Kind {
    kFixed,     // capacity_factor > 0: `count` is C
    kDropless,  // == 0: C is the max demand, known only at run time; `count` is 0
    kBounded,   // < 0: C = min(max demand, `count`)
  };
  Kind kind = Kind::kFixed;
  int64_t count = 0;
  int64_t tokens = 0;     // N: tokens one process routes per layer call
  int64_t top_k = 0;      // k' = min(top_k, experts)
  int64_t alignment = 1;  // C is rounded up to a multiple of this
};

struct FlopsEstimate {  // one optimizer step, forward + backward, all processes
  // docs/PROTOCOL.md, "moe-train bench": 3 * 4 * N * k' * M * H per MoE layer, 3 * 6 * N * k' *
  // M * H with moe.expert_ffn "glu" (three GEMMs: gate, up, down)
  double experts = 0;
  double dense = 0;  // 6 * (matmul parameters) * tokens, attention scores, convolutions
  double total() const { return experts + dense; }
};

struct MemoryEstimate {                                           // bytes
  double weights = 0, gradients = 0, optimizer = 0, masters = 0;  // whole model, one copy
  double activations = 0;  // saved for backward, one forward/backward pass of one process
  double states() const { return weights + gradients + optimizer + masters; }
};

// One rank of a run over W = parallel.nodes x parallel.nproc ranks (W == 1: the whole run).
struct RankEstimate {
  int64_t world = 1;
  protocol::ExpertPlacement placement;  // protocol/parallel_layout.h
  ParameterEstimate parameters;         // its share of the experts, and every dense parameter
  MemoryEstimate memory;                // states of those parameters, and its activations
  // Bytes the rank sends through the all-to-all per optimizer step: per MoE layer and pass,
  // 4 x (W-1)/W x E x C x M x dtype bytes (dispatch and combine, forward and backward); 0 with
  // adaptive_r = 0, without expert parallelism or with W == 1 (all_to_all_bytes_per_layer).
  double all_to_all_bytes = 0;
  bool all_to_all_assumes_r1 = false;  // adaptive_r is "auto" or > 1: r = 1's figure
};

struct ConfigEstimates {
  ParameterEstimate parameters;
  // Keys and values one token leaves in the attention's cache, all layers, in train.dtype: lm
  // 2 M per layer, decoder 2 x kv_heads x head_dim per layer (mla: kv_lora_rank + qk_rope_dim,
  // the compressed latent and the shared rotary key); 0 without attention.
  double kv_cache_bytes_per_token = 0;
  int64_t moe_layers = 0;
  int64_t tokens_per_sample = 0;
  double tokens_per_step = 0;  // batch_size * grad_accum * tokens_per_sample
  FlopsEstimate flops;
  CapacityEstimate capacity;
  MemoryEstimate memory;
  RankEstimate rank;
};

// False when a size the estimates depend on is not positive (the form shows "—" then; validation
// says why).
bool can_estimate(const protocol::RunConfig& config);

ParameterEstimate estimate_parameters(const protocol::RunConfig& config);
int64_t moe_layer_count(const protocol::RunConfig& config);
int64_t tokens_per_sample(const protocol::RunConfig& config);

// docs/ROUTING.md, "Capacity": the capacity rule for `tokens` routed tokens, `experts` experts, k'
// choices. max_demand is only used when factor <= 0.
int64_t capacity_slots(double factor, int64_t tokens, int64_t experts, int64_t top_k,
                       int64_t max_demand, int64_t alignment);
CapacityEstimate estimate_capacity(const protocol::RunConfig& config);

// W = parallel.nodes x parallel.nproc; 1 while either is out of range.
int64_t world_size(const protocol::RunConfig& config);

// All-to-all bytes one rank sends in one MoE layer call, forward and backward, at r = 1:
// 4 x (W-1)/W x E x C x M x dtype bytes. The dispatch sends the rank's [E, C, M] slots, the
// combine brings the same amount back, and backward repeats both for the gradients; a 1/W share
// stays on the rank. C is the estimate's capacity (balanced demand when dropless).
double all_to_all_bytes_per_layer(const protocol::RunConfig& config,
                                  const CapacityEstimate& capacity);

// One MoE layer's expert weights and biases, every expert: 2 E H M for moe.expert_ffn "mlp"
// (fc1, fc2), 3 E H M for "glu" (gate, up, down), and the biases (fc1_bias: E H, twice for glu's
// gate and up; fc2_bias: E M).
double expert_parameters(const protocol::RunConfig& config);
// GEMMs of one expert FFN's forward: 2 (mlp: fc1, fc2) or 3 (glu: gate, up, down).
int64_t expert_ffn_gemms(const protocol::RunConfig& config);
// The expert FFN's GEMMs that take the expert's input (fc1; glu's gate and up): backward skips
// their input gradient where nothing needs it (helloworld).
int64_t expert_input_gemms(const protocol::RunConfig& config);
// The decoder's shared expert of one MoE layer: gate, up [S, M] and down [M, S], and the
// shared gate's [1, M] (0 without moe.shared_hidden or for the other kinds).
double shared_expert_parameters(const protocol::RunConfig& config);
// Forward FLOPs per token of the decoder's shared expert in one MoE layer: 6 M S, and 2 M for the
// shared gate (0 without one).
double shared_expert_forward_flops_per_token(const protocol::RunConfig& config);
// Forward FLOPs of one MoE layer's gate per token.
double gate_forward_flops_per_token(const protocol::RunConfig& config);
// Forward FLOPs of everything but the experts (gates included) for `samples` samples. Matmuls
// count 2 per multiply-add (so training is the usual 6 * parameters * tokens for them); the
// attention scores and the image stem's convolutions are added explicitly, the head of the image
// model runs once per sample, not per token. The decoder's causal scaled-dot-product attention
// counts the lower triangle it computes (2 T x heads x head_dim per token and layer, half the
// lm's full T x T scores; mla: QK^T over qk_nope + qk_rope, PV over v_head_dim; the whole
// square in the blocks with sinks or a window, attention_counts.h).
double dense_forward_flops(const protocol::RunConfig& config, double samples);

// All of the above; call can_estimate first.
ConfigEstimates estimate(const protocol::RunConfig& config);

// The attention's causal score FLOPs (QK^T and PV) per token and layer: lm 4 T M (full T x T
// matrices), decoder 2 T x heads x head_dim (causal SDPA; twice that in the blocks with sinks or
// a window, averaged over the blocks; mla T x heads x (qk_nope + qk_rope + v_head)); 0 for the
// other kinds.
double attention_score_flops_per_token(const protocol::RunConfig& config);

// Bytes per element of train.dtype as the engine stores weights.
int64_t dtype_bytes(protocol::Dtype dtype);

}  // namespace moe::plan
