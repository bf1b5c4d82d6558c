#include "plan/op_counts.h"

#include <algorithm>

#include "plan/attention_counts.h"
#include "plan/config_estimates.h"
#include "protocol/decoder_layout.h"

namespace moe::plan {
namespace {

double element_bytes(const protocol::RunConfig& c) {
  return double(dtype_bytes(c.train.dtype));
}

double dense_blocks(const protocol::RunConfig& c) {
  return c.model.kind == protocol::ModelKind::HelloWorld
             ? 0.0
             : double(c.model.layers - moe_layer_count(c));
}

bool is_decoder(const protocol::RunConfig& c) {
  return c.model.kind == protocol::ModelKind::Decoder;
}

// The decoder's element-wise work of one forward pass (core/engine/model/*_attention.cpp,
// rms_norm.cpp, rotary.cpp).
double decoder_elementwise_bytes(const protocol::RunConfig& c, double tokens) {
  const double elem = element_bytes(c), m = double(c.model.dim), v = double(c.model.vocab);
  // Per block: two RMSNorms (to float32 and back, the mean of squares, the scaling: about 10
  // passes over [tokens, M] each at float32 width), two residuals (3 passes each), and the
  // attention's own (attention_counts.h).
  const AttentionPasses attention = attention_elementwise_per_token(c);
  const double float32_width = 20 * m + attention.float32_elements;
  const double model_width = 6 * m + attention.model_elements;
  double bytes = double(c.model.layers) * tokens * (float32_width * 4 + model_width * elem);
  // Shared experts: activation, product, the gate's sigmoid and scaling, the sum into the output.
  if (c.moe.shared_hidden > 0) {
    const double sh = double(c.moe.shared_hidden);
    bytes += double(moe_layer_count(c)) * tokens * elem *
             (5 * sh + (c.moe.shared_gate ? 3 * m : 0) + 3 * m);
  }
  bytes += dense_blocks(c) * tokens * elem * 5 * double(protocol::dense_mlp_hidden(c));
  const double loss = 3 * tokens * v * 4;        // log_softmax and the gather, in float32
  return bytes + 12 * tokens * m * elem + loss;  // embedding, final norm, loss
}

}  // namespace

double expert_tensors(const protocol::RunConfig& c) {
  return double(expert_ffn_gemms(c)) + (c.moe.fc1_bias ? double(expert_input_gemms(c)) : 0.0) +
         double(c.moe.fc2_bias);
}

double expert_ops(const protocol::RunConfig& c) {
  return c.moe.expert_ffn == protocol::ExpertFfn::Glu ? kGluExpertOps : kExpertOps;
}

double expert_hidden_passes(const protocol::RunConfig& c) {
  return c.moe.expert_ffn == protocol::ExpertFfn::Glu ? kGluExpertHiddenPasses
                                                      : kExpertHiddenPasses;
}

double dense_elementwise_bytes(const protocol::RunConfig& c, double samples, double tokens) {
  const double elem = element_bytes(c), m = double(c.model.dim), h = double(c.moe.hidden);
  const double blocks = double(c.model.layers), dense_ffn = dense_blocks(c) * 4 * tokens * h * elem;
  if (is_decoder(c)) return decoder_elementwise_bytes(c, tokens);
  if (c.model.kind == protocol::ModelKind::Lm) {
    const double t = double(c.model.seq_len), heads = double(c.model.heads);
    const double v = double(c.model.vocab);
    // Per block: two norms, two residuals, q/k/v splits and the attention output (about 16
    // passes over [tokens, M]); scores: scale, mask, softmax (about 5 passes over [B, h, T, T]).
    const double per_block = 16 * tokens * m * elem + 5 * samples * heads * t * t * elem;
    const double loss = 3 * tokens * v * 4;  // log_softmax and the gather, in float32
    return blocks * per_block + dense_ffn + 4 * tokens * m * elem + loss;
  }
  if (c.model.kind == protocol::ModelKind::Image) {
    return blocks * 8 * tokens * m * elem + dense_ffn + 4 * tokens * m * elem;
  }
  return 3 * tokens * m * elem;  // helloworld: the sum over the last dim and log_softmax
}

double dense_ops(const protocol::RunConfig& c) {
  if (is_decoder(c)) {
    // Per block: two RMSNorms (8 each), two residuals and the attention's (attention_counts.h);
    // per shared expert three GEMMs, activation, product, gate; per dense block the gated MLP;
    // embedding, final norm, head and loss.
    const double per_block = 18 + attention_ops(c);
    const double shared = c.moe.shared_hidden > 0 ? 6 + (c.moe.shared_gate ? 4 : 0) : 0;
    return double(c.model.layers) * per_block + double(moe_layer_count(c)) * shared +
           dense_blocks(c) * 6 + 20;
  }
  if (c.model.kind == protocol::ModelKind::Lm)
    return double(c.model.layers) * 30 + dense_blocks(c) * 6 + 12;
  if (c.model.kind == protocol::ModelKind::Image)
    return double(c.model.layers) * 10 + dense_blocks(c) * 6 + 16;
  return 6;
}

double parameter_tensors(const protocol::RunConfig& c) {
  const double moe = double(moe_layer_count(c));
  const double gate = c.moe.gate == protocol::Gate::Cosine ? 4 : 1 + double(c.moe.gate_bias);
  const double experts = expert_tensors(c);
  if (is_decoder(c)) {
    // Embedding; per block two norms and the attention's; per MoE layer the gate, the experts,
    // the shared expert's three matrices and its gate; per dense block three matrices; the final
    // norm and an untied head.
    const double per_block = 2 + attention_parameter_tensors(c);
    const double shared = c.moe.shared_hidden > 0 ? 3 + double(c.moe.shared_gate) : 0;
    return 1 + double(c.model.layers) * per_block + moe * (gate + experts + shared) +
           dense_blocks(c) * 3 + 1 + (c.model.tie_embeddings ? 0 : 1);
  }
  const double moe_tensors = moe * (gate + experts), dense_ffns = dense_blocks(c) * 4;
  if (c.model.kind == protocol::ModelKind::Lm) {
    const double head = c.model.tie_embeddings ? 0 : 1;
    return 2 + double(c.model.layers) * 8 + moe_tensors + dense_ffns + 2 + head;
  }
  if (c.model.kind == protocol::ModelKind::Image)
    return 4 + 1 + double(c.model.layers) * 2 + moe_tensors + dense_ffns + 4;
  return moe_tensors;
}

double largest_parameter_tensor(const protocol::RunConfig& c, double expert_share) {
  const double m = double(c.model.dim), h = double(c.moe.hidden), e = double(c.moe.experts);
  double largest = e * h * m * expert_share;  // batched_fc1_w / fc2_w
  if (dense_blocks(c) > 0) largest = std::max(largest, m * h);
  if (c.model.kind == protocol::ModelKind::Lm) {
    largest = std::max({largest, double(c.model.vocab) * m, 3 * m * m});
  }
  if (is_decoder(c)) {
    largest = e * h * m * expert_share;
    if (dense_blocks(c) > 0) largest = std::max(largest, m * double(protocol::dense_mlp_hidden(c)));
    largest = std::max({largest, double(c.model.vocab) * m, largest_attention_tensor(c),
                        double(c.moe.shared_hidden) * m});
  }
  return largest;
}

double buffer_bytes(const protocol::RunConfig& c, int64_t r, bool split, int64_t shards,
                    double slots) {
  if (!split) return 0;
  const double elem = element_bytes(c);
  const double slots_bytes = double(c.moe.experts) * slots * double(c.model.dim) * elem;
  double bytes = 2 * slots_bytes;  // the received tokens and the outputs on their way back
  const bool gathers = r == 0 || (shards > 1 && r < shards);
  // The gathered weights stay saved for backward in every MoE layer, and their gradient is
  // reduced whole.
  if (gathers) bytes += double(moe_layer_count(c) + 1) * expert_parameters(c) * elem;
  return bytes;
}

}  // namespace moe::plan
