// GPT-OSS's config.json <-> RunConfig (family_config.h).
#include "hf/family_config.h"
#include "protocol/decoder_layout.h"

namespace moe::hf::detail {

using protocol::ModelFamily;
using protocol::RunConfig;

// GPT-OSS: biases everywhere, sinks, a biased router taking the softmax of its k best logits,
// clamped SwiGLU experts.
void read_gpt_oss(Reader& r, RunConfig& c) {
  auto& m = c.model;
  auto& moe = c.moe;
  moe.experts = experts_key(r);
  moe.hidden = r.integer("intermediate_size");
  moe.router = protocol::RouterKind::TopKSoftmax;
  moe.gate_bias = true;
  moe.fc1_bias = moe.fc2_bias = true;
  moe.swiglu_limit = r.has("swiglu_limit") ? r.number("swiglu_limit") : 7.0;
  moe.swiglu_alpha = r.has("swiglu_alpha") ? r.number("swiglu_alpha") : 1.702;
  r.used.insert("swiglu_limit");
  r.used.insert("swiglu_alpha");
  if (moe.activation != protocol::Activation::Silu)
    r.refuse("hidden_act", "GPT-OSS's experts are the clamped SwiGLU (\"silu\")");
  m.qkv_bias = m.o_bias = r.boolean_or("attention_bias", true);
  m.attention_sinks = true;
}

// What GPT-OSS's config.json can say: biases on q, k, v and o together, sinks, a biased router
// taking the softmax of its k best logits, clamped SwiGLU experts with biases.
void check_gpt_oss_export(const RunConfig& c) {
  const auto& m = c.model;
  const auto& moe = c.moe;
  if (m.qkv_bias != m.o_bias)
    cannot_export(c, "model.o_bias", "GPT-OSS's attention_bias covers q, k, v and o together");
  if (!m.attention_sinks) cannot_export(c, "model.attention_sinks", "GPT-OSS always has sinks");
  if (!moe.gate_bias) cannot_export(c, "moe.gate_bias", "GPT-OSS's router has a bias");
  if (!moe.fc1_bias || !moe.fc2_bias)
    cannot_export(c, "moe.fc1_bias", "GPT-OSS's experts have biases");
  if (moe.swiglu_limit <= 0) cannot_export(c, "moe.swiglu_limit", "GPT-OSS clamps its SwiGLU");
  if (moe.router != protocol::RouterKind::TopKSoftmax)
    cannot_export(c, "moe.router", "GPT-OSS takes the softmax of the k best logits");
  if (moe.shared_hidden > 0 || !m.dense_layers.empty())
    cannot_export(c, "moe.shared_hidden", "GPT-OSS has routed experts only");
}

void write_gpt_oss(const RunConfig& c, nlohmann::ordered_json& j) {
  const auto& m = c.model;
  j["num_local_experts"] = c.moe.experts;
  j["intermediate_size"] = c.moe.hidden;
  j["attention_bias"] = m.qkv_bias;
  j["swiglu_limit"] = c.moe.swiglu_limit;
  j["swiglu_alpha"] = c.moe.swiglu_alpha;
  const auto sliding = protocol::sliding_layer_mask(m);
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (bool slides : sliding) types.push_back(slides ? "sliding_attention" : "full_attention");
  j["layer_types"] = types;
  j["sliding_window"] = m.sliding_window > 0 ? nlohmann::ordered_json(m.sliding_window) : nullptr;
}

}  // namespace moe::hf::detail
