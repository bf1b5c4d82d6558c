// DeepSeek-V2 and V3's config.json <-> RunConfig (family_config.h).
#include "hf/family_config.h"
#include "protocol/decoder_layout.h"

namespace moe::hf::detail {

using protocol::ModelFamily;
using protocol::RunConfig;

// DeepSeek's multi-head latent attention: every head expands the one latent.
void read_mla(Reader& r, RunConfig& c) {
  auto& m = c.model;
  m.attention = protocol::AttentionKind::Mla;
  m.q_lora_rank = r.integer_or("q_lora_rank", 0);
  m.kv_lora_rank = r.integer("kv_lora_rank");
  m.qk_rope_dim = r.integer("qk_rope_head_dim");
  m.qk_nope_dim = r.integer("qk_nope_head_dim");
  m.v_head_dim = r.integer("v_head_dim");
  if (m.kv_heads != 0) {
    r.refuse("num_key_value_heads", "must equal num_attention_heads (" + std::to_string(m.heads) +
                                        ") for multi-head latent attention, got " +
                                        std::to_string(m.kv_heads));
  }
  // Derived by the reference from the widths above.
  m.head_dim = 0;
  r.used.insert("qk_head_dim");
  r.require("attention_bias", {false}, "attention biases are not implemented for MLA");
  r.require("pretraining_tp", {1}, "tensor-parallel pretraining slices are not implemented");
  r.require("mlp_bias", {false}, "MLP biases are not implemented");
}

// DeepSeek's MoE: dense first layers, shared experts, group-limited routing.
void read_deepseek(Reader& r, RunConfig& c) {
  auto& m = c.model;
  auto& moe = c.moe;
  const bool v3 = m.family == ModelFamily::DeepseekV3;
  read_mla(r, c);
  moe.experts = r.integer("n_routed_experts");
  moe.hidden = r.integer("moe_intermediate_size");
  moe.shared_hidden = moe.hidden * r.integer_or("n_shared_experts", 0);
  moe.shared_gate = false;
  m.dense_hidden = r.integer("intermediate_size");
  const int64_t first_dense = r.integer_or("first_k_dense_replace", 0);
  if (first_dense < 0 || first_dense > m.layers)
    r.refuse("first_k_dense_replace", "must be between 0 and num_hidden_layers");
  std::vector<int64_t> dense;
  for (int64_t i = 0; i < first_dense; ++i) dense.push_back(i);
  m.dense_layers = protocol::format_layer_list(dense);
  r.require("moe_layer_freq", {1}, "only every layer after first_k_dense_replace is MoE");
  moe.router = protocol::RouterKind::GroupLimitedTopK;
  moe.routed_scaling = r.has("routed_scaling_factor") ? r.number("routed_scaling_factor") : 1.0;
  r.used.insert("routed_scaling_factor");
  moe.expert_groups = r.integer_or("n_group", 1);
  moe.topk_groups = r.integer_or("topk_group", 1);
  // The reference computes no auxiliary loss; DeepSeek's own configs name their sequence-wise one.
  moe.aux_loss = protocol::AuxLoss::None;
  if (r.boolean_or("seq_aux", false)) moe.aux_loss = protocol::AuxLoss::SeqBalance;
  if (r.has("aux_loss_alpha")) c.train.aux_loss_weight = r.number("aux_loss_alpha");
  r.used.insert("aux_loss_alpha");
  if (v3) {
    m.rope_interleave = r.boolean_or("rope_interleave", true);
    moe.score_function = protocol::ScoreFunction::Sigmoid;
    moe.group_score = protocol::GroupScore::TopTwoSum;
    moe.normalize_gate = r.boolean_or("norm_topk_prob", true);
    // e_score_correction_bias: the selection bias, updated as DeepSeek-V3 trains it.
    moe.bias_balancing.enabled = true;
    r.require("topk_method", {"noaux_tc"}, "DeepSeek-V3 routes with noaux_tc");
    r.require("scoring_func", {"sigmoid"}, "DeepSeek-V3 scores with a sigmoid");
    r.used.insert("num_nextn_predict_layers");  // multi-token prediction: its layers are refused
    r.used.insert("num_mtp_layers");
  } else {
    m.rope_interleave = true;  // the reference turns adjacent pairs (complex multiplication)
    moe.score_function = protocol::ScoreFunction::Softmax;
    moe.group_score = protocol::GroupScore::Max;
    if (r.boolean_or("norm_topk_prob", false))
      r.refuse("norm_topk_prob",
               "true is not what transformers' DeepSeek-V2 computes (it never "
               "renormalises)");
    moe.normalize_gate = false;
    r.used.insert("topk_method");
    const auto& method = r.has("topk_method") ? r.json["topk_method"] : nlohmann::json("greedy");
    if (method == "greedy") {
      moe.expert_groups = moe.topk_groups = 1;
    } else if (method != "group_limited_greedy") {
      r.refuse("topk_method", method.dump() + " is not supported (greedy, group_limited_greedy)");
    }
    r.require("scoring_func", {"softmax"}, "DeepSeek-V2 scores with a softmax");
  }
  r.require("ep_size", {1}, "the checkpoint's expert-parallel size is the run's parallel.nproc");
}

// What DeepSeek's config.json can say: dense layers first, shared experts a multiple of the
// expert width, the family's group score and score function.
void check_deepseek_export(const RunConfig& c, const std::vector<int64_t>& dense) {
  const auto& moe = c.moe;
  const bool v3 = c.model.family == ModelFamily::DeepseekV3;
  for (size_t i = 0; i < dense.size(); ++i) {
    if (dense[i] != static_cast<int64_t>(i))
      cannot_export(c, "model.dense_layers", "DeepSeek's dense layers are the first ones");
  }
  if (moe.shared_gate) cannot_export(c, "moe.shared_gate", "DeepSeek's shared experts are ungated");
  if (moe.shared_hidden % moe.hidden != 0)
    cannot_export(c, "moe.shared_hidden", "must be a multiple of moe.hidden (n_shared_experts)");
  const auto score = v3 ? protocol::ScoreFunction::Sigmoid : protocol::ScoreFunction::Softmax;
  if (moe.score_function != score)
    cannot_export(c, "moe.score_function", "differs from the family's");
  const auto group = v3 ? protocol::GroupScore::TopTwoSum : protocol::GroupScore::Max;
  if (moe.group_score != group && moe.expert_groups > 1)
    cannot_export(c, "moe.group_score", "differs from the family's");
  if (!v3 && moe.normalize_gate)
    cannot_export(c, "moe.normalize_gate", "transformers' DeepSeek-V2 never renormalises");
  if (!v3 && moe.bias_balancing.enabled)
    cannot_export(c, "moe.bias_balancing", "DeepSeek-V2 has no selection bias");
}

void write_deepseek(const RunConfig& c, const std::vector<int64_t>& dense,
                    nlohmann::ordered_json& j) {
  const auto& m = c.model;
  const auto& moe = c.moe;
  j["n_routed_experts"] = moe.experts;
  j["n_shared_experts"] = moe.shared_hidden / moe.hidden;
  j["moe_intermediate_size"] = moe.hidden;
  j["intermediate_size"] = protocol::dense_mlp_hidden(c);
  j["first_k_dense_replace"] = static_cast<int64_t>(dense.size());
  j["q_lora_rank"] = m.q_lora_rank > 0 ? nlohmann::ordered_json(m.q_lora_rank) : nullptr;
  j["kv_lora_rank"] = m.kv_lora_rank;
  j["qk_rope_head_dim"] = m.qk_rope_dim;
  j["qk_nope_head_dim"] = m.qk_nope_dim;
  j["v_head_dim"] = m.v_head_dim;
  j["n_group"] = moe.expert_groups;
  j["topk_group"] = moe.topk_groups;
  j["routed_scaling_factor"] = moe.routed_scaling;
  j["norm_topk_prob"] = moe.normalize_gate;
  j["attention_bias"] = false;
  if (c.model.family == ModelFamily::DeepseekV3) {
    j["rope_interleave"] = m.rope_interleave;
  } else {
    j["topk_method"] = moe.expert_groups > 1 ? "group_limited_greedy" : "greedy";
  }
  if (moe.aux_loss == protocol::AuxLoss::SeqBalance) {
    j["seq_aux"] = true;
    j["aux_loss_alpha"] = c.train.aux_loss_weight;
  }
}

}  // namespace moe::hf::detail
