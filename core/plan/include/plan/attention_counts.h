// The decoder's attention, counted per block as the engine builds it (docs/PLANNER.md, "The
// decoder"): grouped-query attention (core/engine/model/gqa_attention.cpp) or multi-head latent
// attention (model.attention "mla", core/engine/model/mla_attention.cpp). The rest of the
// planner asks here instead of assuming q/k/v widths, so that both kinds are counted alike.
// Where blocks differ (GPT-OSS's sliding-window layers), a per-block figure is the mean over the
// blocks.
#pragma once

#include "protocol/run_config.h"

namespace moe::plan {

// Blocks whose gqa attention the engine computes explicitly (core/engine/model/
// causal_attention.cpp): every block with model.attention_sinks, else model.sliding_layers' when
// model.sliding_window > 0. That path computes the whole [T, T] scores, masks the future and
// what lies beyond the window (a window bounds what a query sees, not what is computed) and keeps
// the softmax output for backward; the other blocks run causal scaled-dot-product attention.
double explicit_attention_blocks(const protocol::RunConfig& config);
// Parameters of one block's attention: gqa q/k/v/o, q/k/v and o biases, sinks (one logit per
// head), qk-norm weights; mla the query path (q_proj, or q_a_proj, q_a_layernorm and q_b_proj),
// kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj and o_proj.
double attention_parameters(const protocol::RunConfig& config);
// Parameter tensors of one block's attention (the optimizer steps tensor by tensor).
double attention_parameter_tensors(const protocol::RunConfig& config);
// Forward FLOPs of one block's projections per token: 2 per multiply-add of every weight above.
double attention_projection_flops_per_token(const protocol::RunConfig& config);
// Forward FLOPs of the causal scores per token and block (QK^T over the query/key head width, PV
// over the value width, the lower triangle only): gqa 2 T heads head_dim, the explicit blocks
// 4 T heads head_dim (the whole square); mla T heads (qk_nope + qk_rope + v_head).
double causal_score_flops_per_token(const protocol::RunConfig& config);
// Forward FLOPs of one block's attention over a KV cache of `context` positions for one new
// token, as the engine's decode step computes it (projections apart): gqa QK^T and PV over every
// position, 4 context heads head_dim (a window masks, it skips nothing); mla the cheaper of its
// two paths (core/engine/model/mla_attention.cpp): every cached latent expanded by kv_b_proj,
// 2 context kv_lora_rank heads (qk_nope + v), and scores and values over the heads' widths,
// 2 context heads (qk + v); or in the latent space, the query and output through kv_b_proj's
// halves, 2 heads kv_lora_rank (qk_nope + v), and scores and values over the latent,
// 2 context heads (2 kv_lora_rank + qk_rope).
double decode_attention_flops_per_token(const protocol::RunConfig& config, int64_t context);
// Elements per token one block's attention saves for backward in the model dtype (the
// log-sum-exp, per sample and head, is apart). mla counts the keys and values as attention
// expands them per head, not the compressed latent a cache would keep; the explicit blocks add
// their softmax output, heads x (T + 1 with sinks) per token.
double attention_saved_elements_per_token(const protocol::RunConfig& config);
// Passes of one block's attention over a token's elements in one forward pass: at float32 width
// (qk-norm; mla's latent norms) and at the model dtype's (rotary, transposes, repeated or
// concatenated keys and values).
struct AttentionPasses {
  double float32_elements = 0, model_elements = 0;
};
AttentionPasses attention_elementwise_per_token(const protocol::RunConfig& config);
// Tensor operations of one block's attention in one forward pass.
double attention_ops(const protocol::RunConfig& config);
// The widest projection output (the GEMM width that carries most of the attention's FLOPs) and
// the largest attention weight, in elements.
int64_t widest_attention_projection(const protocol::RunConfig& config);
double largest_attention_tensor(const protocol::RunConfig& config);
// Elements one token leaves in one layer's inference cache: gqa its keys and values,
// 2 kv_heads head_dim (sliding layers too: the engine's KvCache keeps every position); mla the
// normed latent and the shared rotary key, kv_lora_rank + qk_rope_dim (DeepSeek-V2's compressed
// cache).
double kv_cache_elements_per_token(const protocol::RunConfig& config);

}  // namespace moe::plan
