#pragma once
// Causal scaled-dot-product attention for queries that may start after position 0 (a KV cache's
// decode step), with GPT-OSS's sliding window and sink logits when a layer has them.
#include <torch/torch.h>

namespace moe::model {

struct CachedPositions;

struct CausalOptions {
  double scale = 1.0;  // the scores' factor
  int64_t offset = 0;  // the first query's position; keys are at positions 0 .. k.size(2) - 1
  // int64 [B] or undefined: each batch row's first query position (rows of a batched decode at
  // their own positions; keys past a row's own queries are hidden). Overrides offset.
  at::Tensor row_offsets;
  // Every query is at the first query's position (grouped-query heads folded into the query
  // dimension for one decode step), not at successive positions.
  bool single_position = false;
  int64_t window = 0;  // > 0: a query sees the last `window` positions only (itself included)
  at::Tensor sinks;    // [heads] or undefined: a sink logit per head in every softmax (heads in
                       // order along q's dimensions 1 and 2 with single_position)
};

// The offsets of an attention pass over a KV cache's positions.
void set_cached_offsets(CausalOptions& options, const CachedPositions& held);

// q [B, H, Tq, d], k [B, H, Tk, d], v [B, H, Tk, dv] -> [B, H, Tq, dv].
at::Tensor causal_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                            const CausalOptions& options);

}  // namespace moe::model
