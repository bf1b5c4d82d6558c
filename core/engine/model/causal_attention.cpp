#include "model/causal_attention.h"

#include <limits>

namespace moe::model {

at::Tensor causal_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                            const CausalOptions& options) {
  const int64_t tq = q.size(2), tk = k.size(2);
  const bool plain = !options.sinks.defined() && options.window == 0;
  if (plain && options.offset == 0 && tq == tk) {
    return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, /*dropout_p=*/0.0,
                                            /*is_causal=*/true, options.scale);
  }
  if (plain && tq == 1 && options.offset == tk - 1) {  // a decode step sees every key
    return at::scaled_dot_product_attention(q, k, v, /*attn_mask=*/{}, /*dropout_p=*/0.0,
                                            /*is_causal=*/false, options.scale);
  }
  const auto long_options = q.options().dtype(at::kLong);
  const auto query_positions = at::arange(options.offset, options.offset + tq, long_options);
  const auto behind = query_positions.unsqueeze(1) - at::arange(tk, long_options).unsqueeze(0);
  auto hidden = behind < 0;
  if (options.window > 0) hidden = hidden | (behind >= options.window);
  auto scores = at::matmul(q, k.transpose(-2, -1)) * options.scale;  // [B, H, Tq, Tk]
  scores = scores.masked_fill(hidden, -std::numeric_limits<double>::infinity());
  if (!options.sinks.defined()) return at::matmul(at::softmax(scores, -1), v);
  // The sink takes its share of each softmax and is dropped: rows may sum to less than one.
  const auto sink = options.sinks.to(scores.scalar_type())
                        .view({1, -1, 1, 1})
                        .expand({scores.size(0), scores.size(1), tq, 1});
  const auto probs = at::softmax(at::cat({scores, sink}, -1), -1).narrow(-1, 0, tk);
  return at::matmul(probs, v);
}

}  // namespace moe::model
