#include "model/causal_attention.h"

#include <limits>

#include "model/kv_cache.h"

namespace moe::model {

namespace {

// Scores -> attention output with a sink logit per head in each softmax; hidden keys are -inf.
at::Tensor sink_softmax_values(at::Tensor scores, const at::Tensor& hidden, const at::Tensor& v,
                               const at::Tensor& sinks) {
  scores = scores.masked_fill(hidden, -std::numeric_limits<double>::infinity());
  // The sink takes its share of each softmax and is dropped: rows may sum to less than one.
  const int64_t tk = scores.size(-1);
  // A sink per head: [H] over the heads, or over the key/value heads and their query heads
  // (single_position's grouped layout, [B, kv, groups, Tk]).
  const bool per_row = sinks.numel() != scores.size(1);
  const auto sink = sinks.to(scores.scalar_type())
                        .view({1, scores.size(1), per_row ? scores.size(2) : 1, 1})
                        .expand({scores.size(0), scores.size(1), scores.size(2), 1});
  const auto probs = at::softmax(at::cat({scores, sink}, -1), -1).narrow(-1, 0, tk);
  return at::matmul(probs, v);
}

}  // namespace

void set_cached_offsets(CausalOptions& options, const CachedPositions& held) {
  if (held.rows->ragged()) {
    options.row_offsets = held.rows->start_positions;
  } else {
    options.offset = held.rows->starts.front();
  }
}

at::Tensor causal_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                            const CausalOptions& options) {
  const int64_t tq = q.size(2), tk = k.size(2);
  const bool ragged = options.row_offsets.defined();
  const bool plain = !options.sinks.defined() && options.window == 0 && !ragged;
  if (plain && options.offset == 0 && tq == tk) {
    return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, /*dropout_p=*/0.0,
                                            /*is_causal=*/true, options.scale);
  }
  const bool one_position = tq == 1 || options.single_position;
  if (plain && one_position && options.offset == tk - 1) {  // a decode step sees every key
    return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, /*dropout_p=*/0.0,
                                            /*is_causal=*/false, options.scale);
  }
  // Each query's position [Tq, 1], or [B, 1, Tq, 1] for rows at their own positions.
  const auto long_options = q.options().dtype(at::kLong);
  const auto steps = one_position ? at::zeros({tq}, long_options) : at::arange(tq, long_options);
  const auto query_positions =
      ragged ? options.row_offsets.view({-1, 1, 1, 1}) + steps.view({1, 1, tq, 1})
             : (steps + options.offset).unsqueeze(1);
  const auto behind = query_positions - at::arange(tk, long_options);
  auto hidden = behind < 0;
  if (options.window > 0) hidden = hidden | (behind >= options.window);
  if (!options.sinks.defined()) {
    return at::scaled_dot_product_attention(q, k, v, hidden.logical_not(), /*dropout_p=*/0.0,
                                            /*is_causal=*/false, options.scale);
  }
  return sink_softmax_values(at::matmul(q, k.transpose(-2, -1)) * options.scale, hidden, v,
                             options.sinks);
}

}  // namespace moe::model
