#include "plan/attention_counts.h"

#include <algorithm>
#include <vector>

#include "protocol/decoder_layout.h"

namespace moe::plan {
namespace {

using protocol::RunConfig;

bool is_mla(const RunConfig& c) {
  return c.model.attention == protocol::AttentionKind::Mla;
}

// Grouped-query attention's widths: q_proj's output heads x head_dim, k_proj's and v_proj's
// kv_heads x head_dim.
struct GqaWidths {
  double head_dim, q, kv;
};

GqaWidths gqa_widths(const RunConfig& c) {
  const double hd = double(protocol::attention_head_dim(c.model));
  return {hd, double(c.model.heads) * hd, double(protocol::attention_kv_heads(c.model)) * hd};
}

// Multi-head latent attention's widths (core/engine/model/mla_attention.cpp): a query/key head
// is qk = nope + rope channels, a value head v; the latents are q_lora_rank (0: no query
// bottleneck) and kv_lora_rank wide.
struct MlaWidths {
  double heads, qk, nope, rope, v, q_rank, kv_rank;
  double queries() const { return heads * qk; }              // q_b_proj's (or q_proj's) output
  double expanded_kv() const { return heads * (nope + v); }  // kv_b_proj's output
  double compressed() const { return kv_rank + rope; }       // kv_a_proj_with_mqa's output
};

MlaWidths mla_widths(const RunConfig& c) {
  const auto& m = c.model;
  return {double(m.heads),       double(m.qk_nope_dim + m.qk_rope_dim),
          double(m.qk_nope_dim), double(m.qk_rope_dim),
          double(m.v_head_dim),  double(m.q_lora_rank),
          double(m.kv_lora_rank)};
}

// The MLA weights that are matrices: the query path, the kv compression and expansion, o_proj.
double mla_matrix_parameters(const RunConfig& c) {
  const MlaWidths w = mla_widths(c);
  const double dim = double(c.model.dim);
  const double query = w.q_rank > 0 ? dim * w.q_rank + w.q_rank * w.queries() : dim * w.queries();
  return query + dim * w.compressed() + w.kv_rank * w.expanded_kv() + w.heads * w.v * dim;
}

// The share of the blocks that take explicit_attention_blocks' path.
double explicit_share(const RunConfig& c) {
  return c.model.layers > 0 ? explicit_attention_blocks(c) / double(c.model.layers) : 0.0;
}

}  // namespace

double explicit_attention_blocks(const RunConfig& c) {
  if (is_mla(c)) return 0;  // validation refuses sinks and windows with mla
  if (c.model.attention_sinks) return double(c.model.layers);
  const std::vector<bool> sliding = protocol::sliding_layer_mask(c.model);
  return double(std::count(sliding.begin(), sliding.end(), true));
}

double attention_parameters(const RunConfig& c) {
  const double dim = double(c.model.dim);
  if (is_mla(c)) {  // the matrices and the latents' RMSNorm weights
    const MlaWidths w = mla_widths(c);
    return mla_matrix_parameters(c) + w.kv_rank + w.q_rank;
  }
  const GqaWidths a = gqa_widths(c);
  double p = dim * a.q + 2 * dim * a.kv + a.q * dim;
  if (c.model.qkv_bias) p += a.q + 2 * a.kv;
  if (c.model.o_bias) p += dim;
  if (c.model.attention_sinks) p += double(c.model.heads);  // one sink logit per head
  if (c.model.qk_norm == protocol::QkNorm::Head) p += 2 * a.head_dim;
  if (c.model.qk_norm == protocol::QkNorm::Full) p += a.q + a.kv;
  return p;
}

double attention_parameter_tensors(const RunConfig& c) {
  if (is_mla(c)) {  // kv_a, its norm, kv_b, o; q_proj, or q_a, its norm and q_b
    return 4 + (c.model.q_lora_rank > 0 ? 3 : 1);
  }
  double tensors =
      4 + (c.model.qkv_bias ? 3 : 0) + double(c.model.o_bias) + double(c.model.attention_sinks);
  if (c.model.qk_norm != protocol::QkNorm::None) tensors += 2;
  return tensors;
}

double attention_projection_flops_per_token(const RunConfig& c) {
  if (is_mla(c)) return 2 * mla_matrix_parameters(c);
  const GqaWidths a = gqa_widths(c);
  return 2 * double(c.model.dim) * (2 * a.q + 2 * a.kv);  // q, k, v, o
}

double causal_score_flops_per_token(const RunConfig& c) {
  // Full scores would be 2 T heads qk for QK^T and 2 T heads v for PV; causal SDPA computes half,
  // the explicit path (sinks, windows) the whole square: the mask hides scores, it skips none.
  const double t = double(c.model.seq_len);
  if (is_mla(c)) {
    const MlaWidths w = mla_widths(c);
    return t * w.heads * (w.qk + w.v);
  }
  return 2 * t * gqa_widths(c).q * (1 + explicit_share(c));
}

double decode_attention_flops_per_token(const RunConfig& c, int64_t context) {
  const double l = double(context);
  if (is_mla(c)) {
    const MlaWidths w = mla_widths(c);
    const double expanded = 2 * l * w.heads * (w.qk + w.v) + 2 * l * w.kv_rank * w.expanded_kv();
    const double latent = 2 * w.heads * (w.kv_rank * (w.nope + w.v) + l * (2 * w.kv_rank + w.rope));
    return std::min(expanded, latent);
  }
  return 4 * l * gqa_widths(c).q;
}

double attention_saved_elements_per_token(const RunConfig& c) {
  if (is_mla(c)) {
    const MlaWidths w = mla_widths(c);
    // The query latent and its norm; the queries, their rotated part and the concatenated
    // queries; the compressed latent with the rotary key, the normed latent and the rotated key;
    // kv_b_proj's keys and values and the concatenated keys every head reads; the output.
    return 2 * w.q_rank + 2 * w.queries() + w.heads * w.rope + w.compressed() + w.kv_rank + w.rope +
           w.expanded_kv() + w.queries() + w.heads * w.v;
  }
  const GqaWidths a = gqa_widths(c);
  // q, k, v, the rotated q and k, and the output; the normed q and k with qk-norm; the key/value
  // heads repeated for the query heads (grouped-query attention).
  double saved = 3 * a.q + 3 * a.kv;
  if (c.model.qk_norm != protocol::QkNorm::None) saved += a.q + a.kv;
  if (a.kv < a.q) saved += 2 * a.q;
  // The explicit path's softmax output, T scores per query and head (and the sink's column),
  // which PV keeps for backward.
  const double sink = c.model.attention_sinks ? 1 : 0;
  return saved + explicit_share(c) * double(c.model.heads) * (double(c.model.seq_len) + sink);
}

AttentionPasses attention_elementwise_per_token(const RunConfig& c) {
  AttentionPasses p;
  if (is_mla(c)) {
    const MlaWidths w = mla_widths(c);
    // The latents' RMSNorms (about 10 passes at float32 width each); rotary on the queries'
    // rotary part and the shared key (about 6 passes); concatenating the queries and the
    // expanded keys, the transposes to heads and back.
    p.float32_elements = 10 * (w.kv_rank + w.q_rank);
    p.model_elements = 6 * w.rope * (w.heads + 1) + 2 * 2 * w.queries() + 2 * w.queries() +
                       2 * w.expanded_kv() + 2 * w.heads * w.v;
    return p;
  }
  const GqaWidths a = gqa_widths(c);
  // Rotary on q and k (x cos, rotate_half, x sin, the sum: about 6 passes), the transposes of q,
  // k, v and the output, the keys and values repeated for the query heads; qk-norm's RMSNorms.
  p.model_elements = 6 * (a.q + a.kv) + 2 * (a.q + 2 * a.kv) + 2 * a.q;
  if (a.kv < a.q) p.model_elements += 2 * 2 * a.q;
  // The explicit path's scores, heads x T per token: scale, mask and softmax (about 5 passes, as
  // the lm's), 2 more to concatenate the sink column.
  const double score_passes = 5 + (c.model.attention_sinks ? 2 : 0);
  p.model_elements +=
      explicit_share(c) * score_passes * double(c.model.heads) * double(c.model.seq_len);
  if (c.model.qk_norm != protocol::QkNorm::None) p.float32_elements = 10 * (a.q + a.kv);
  return p;
}

double attention_ops(const RunConfig& c) {
  if (is_mla(c)) {
    // Four projections, kv_a_layernorm (8), rotary on q and k (5 each), four narrows, three
    // views, three transposes, the expand, two concatenations, the reshape, the attention;
    // q_a_proj and q_a_layernorm with a query latent.
    return 37 + (c.model.q_lora_rank > 0 ? 9 : 0);
  }
  // Four projections, views and transposes, rotary on q and k (5 each), repeating keys and
  // values, the attention; the biases; qk-norm's two RMSNorms; the explicit path's positions,
  // mask, two matmuls, scale, masked_fill and softmax instead of one SDPA call (the sink's view,
  // expand, concatenation and narrow more).
  double ops = 22 + (c.model.qkv_bias ? 3 : 0) + double(c.model.o_bias);
  if (c.model.qk_norm != protocol::QkNorm::None) ops += 16;
  return ops + explicit_share(c) * (11 + (c.model.attention_sinks ? 5 : 0));
}

int64_t widest_attention_projection(const RunConfig& c) {
  if (is_mla(c)) {
    const MlaWidths w = mla_widths(c);
    return int64_t(std::max(w.queries(), w.expanded_kv()));
  }
  return int64_t(gqa_widths(c).q);
}

double largest_attention_tensor(const RunConfig& c) {
  const double dim = double(c.model.dim);
  if (is_mla(c)) {
    const MlaWidths w = mla_widths(c);
    const double query = w.q_rank > 0 ? std::max(dim, w.queries()) * w.q_rank : dim * w.queries();
    return std::max(
        {query, dim * w.compressed(), w.kv_rank * w.expanded_kv(), w.heads * w.v * dim});
  }
  return gqa_widths(c).q * dim;  // q_proj and o_proj
}

double kv_cache_elements_per_token(const RunConfig& c) {
  if (is_mla(c)) return mla_widths(c).compressed();
  return 2 * gqa_widths(c).kv;
}

}  // namespace moe::plan
