#include "base/experiment/field_relevance.h"

#include <algorithm>

#include "protocol/parallel_layout.h"

namespace moe::ui {

std::string unusedReason(const std::string& pointer, const protocol::RunConfig& c) {
  const protocol::ModelKind kind = c.model.kind;
  const bool decoder = kind == protocol::ModelKind::Decoder;
  if (pointer == "/model/heads" || pointer == "/model/vocab" ||
      pointer == "/model/tie_embeddings") {
    if (kind != protocol::ModelKind::Lm && !decoder)
      return "used by model.kind \"lm\" and \"decoder\" only";
  } else if (pointer == "/model/family" || pointer == "/model/kv_heads" ||
             pointer == "/model/head_dim" || pointer == "/model/rope_theta" ||
             pointer == "/model/norm_eps" || pointer == "/model/qkv_bias" ||
             pointer == "/model/qk_norm" || pointer == "/model/dense_hidden" ||
             pointer == "/model/dense_layers" || pointer == "/model/pad_token" ||
             pointer == "/model/rope_interleave" || pointer == "/model/attention" ||
             pointer == "/moe/shared_hidden") {
    if (!decoder) return "used by model.kind \"decoder\" only";
    const bool mla = c.model.attention == protocol::AttentionKind::Mla;
    if (mla && (pointer == "/model/kv_heads" || pointer == "/model/head_dim" ||
                pointer == "/model/qk_norm" || pointer == "/model/qkv_bias"))
      return "model.attention \"mla\" has its own widths";
  } else if (pointer == "/model/o_bias" || pointer == "/model/attention_sinks" ||
             pointer == "/model/sliding_window" || pointer == "/model/sliding_layers" ||
             pointer == "/model/rope_scaling") {
    if (!decoder) return "used by model.kind \"decoder\" only";
    if (c.model.attention == protocol::AttentionKind::Mla && pointer != "/model/rope_scaling")
      return "used by model.attention \"gqa\" only";
    if (pointer == "/model/sliding_layers" && c.model.sliding_window == 0)
      return "used when model.sliding_window > 0";
  } else if (pointer.rfind("/model/rope_", 0) == 0 && pointer != "/model/rope_theta" &&
             pointer != "/model/rope_interleave") {
    if (!decoder || c.model.rope_scaling != protocol::RopeScaling::Yarn)
      return "used by model.rope_scaling \"yarn\" only";
  } else if (pointer == "/moe/swiglu_alpha") {
    if (c.moe.swiglu_limit == 0.0) return "used when moe.swiglu_limit > 0";
  } else if (pointer == "/model/q_lora_rank" || pointer == "/model/kv_lora_rank" ||
             pointer == "/model/qk_rope_dim" || pointer == "/model/qk_nope_dim" ||
             pointer == "/model/v_head_dim") {
    if (!decoder || c.model.attention != protocol::AttentionKind::Mla)
      return "used by model.attention \"mla\" only";
  } else if (pointer == "/moe/score_function" || pointer == "/moe/expert_groups" ||
             pointer == "/moe/topk_groups" || pointer == "/moe/group_score" ||
             pointer == "/moe/routed_scaling") {
    if (c.moe.router != protocol::RouterKind::GroupLimitedTopK)
      return "used by moe.router \"group_limited_top_k\" only";
  } else if (pointer == "/moe/normalize_gate") {
    if (c.moe.router == protocol::RouterKind::TopKSoftmax)
      return "top_k_softmax's gate values always sum to 1";
  } else if (pointer == "/moe/shared_gate") {
    if (c.moe.shared_hidden == 0) return "used when moe.shared_hidden > 0";
  } else if (pointer == "/model/seq_len") {
    if (kind == protocol::ModelKind::Image)
      return "image models make their tokens from image patches";
  } else if (pointer == "/model/layers" || pointer == "/moe/every") {
    if (kind == protocol::ModelKind::HelloWorld) return "helloworld is a single MoE layer";
    if (decoder && pointer == "/moe/every")
      return "the decoder's dense layers are model.dense_layers";
  } else if (pointer == "/moe/cosine_proj_dim" || pointer == "/moe/cosine_init_t") {
    if (c.moe.gate != protocol::Gate::Cosine) return "used by the cosine gate only";
  } else if (pointer == "/moe/bias_balancing/rate") {
    if (!c.moe.bias_balancing.enabled) return "used when bias balancing is enabled";
  } else if (pointer == "/train/momentum") {
    if (c.train.optimizer != protocol::Optimizer::Sgd) return "used by the sgd optimizer only";
  } else if (pointer == "/train/amp") {
    if (c.train.dtype != protocol::Dtype::Float32) return "applies to float32 models only";
  } else if (pointer == "/train/eval_batches") {
    if (c.train.eval_every == 0) return "used when train.eval_every > 0";
  } else if (pointer == "/train/keep_checkpoints") {
    if (c.train.checkpoint_every == 0) return "used when train.checkpoint_every > 0";
  } else if (pointer == "/data/path") {
    if (c.data.kind == protocol::DataKind::Synthetic)
      return "synthetic data is generated, not read";
  } else if (pointer == "/data/tokenizer" || pointer == "/data/cache_dir" ||
             pointer == "/data/eos_token") {
    if (c.data.kind != protocol::DataKind::Text && c.data.kind != protocol::DataKind::Jsonl)
      return "used by data.kind \"text\" and \"jsonl\" only";
  } else if (pointer == "/data/text_field") {
    if (c.data.kind != protocol::DataKind::Jsonl) return "used by data.kind \"jsonl\" only";
  } else if (pointer == "/parallel/backend" || pointer == "/parallel/expert_parallel" ||
             pointer == "/parallel/timeout_s") {
    if (protocol::config_world(c.parallel).value_or(1) <= 1)
      return "used with more than one rank (nodes × nproc)";
  } else if (pointer == "/parallel/adaptive_r" || pointer == "/parallel/a2a_overlap_degree") {
    if (protocol::config_world(c.parallel).value_or(1) <= 1)
      return "used with more than one rank (nodes × nproc)";
    if (!c.parallel.expert_parallel) return "used with expert parallelism only";
  }
  return "";
}

std::vector<std::string> offeredValues(const std::string& pointer, const protocol::RunConfig& c) {
  if (pointer != "/parallel/adaptive_r") return {};
  const int64_t world = protocol::config_world(c.parallel).value_or(1);
  const int64_t experts = std::max<int64_t>(c.moe.experts, 1);
  std::vector<std::string> out{"auto"};
  const auto placement = protocol::expert_placement(experts, world, c.parallel.expert_parallel);
  for (int64_t r : protocol::valid_adaptive_r(placement)) out.push_back(std::to_string(r));
  return out;
}

}  // namespace moe::ui
