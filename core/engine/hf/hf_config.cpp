#include "hf/hf_config.h"

#include <algorithm>
#include <map>
#include <set>

#include "hf/family_config.h"
#include "hf/hf_error.h"
#include "protocol/decoder_layout.h"

namespace moe::hf {

namespace detail {

int64_t experts_key(Reader& r) {
  if (r.has("num_experts")) return r.integer("num_experts");
  return r.integer("num_local_experts");
}

[[noreturn]] void cannot_export(const protocol::RunConfig& c, const std::string& key,
                                const std::string& why) {
  throw HfError("export-hf: " + key + ": " + why + " (model.family \"" +
                hf_model_type(c.model.family) + "\")");
}

}  // namespace detail

using detail::cannot_export;
using detail::check_deepseek_export;
using detail::check_gpt_oss_export;
using detail::experts_key;
using detail::read_deepseek;
using detail::read_gpt_oss;
using detail::Reader;
using detail::write_deepseek;
using detail::write_gpt_oss;

using protocol::ModelFamily;
using protocol::RunConfig;

namespace {

// Keys of every Hugging Face config that do not change what the model computes (bookkeeping,
// generation defaults, token ids the tokenizer also has).
const std::set<std::string>& neutral_keys() {
  static const std::set<std::string> keys = {"architectures",
                                             "model_type",
                                             "transformers_version",
                                             "dtype",
                                             "torch_dtype",
                                             "initializer_range",
                                             "use_cache",
                                             "bos_token_id",
                                             "eos_token_id",
                                             "pad_token_id",
                                             "output_router_logits",
                                             "router_aux_loss_coef",
                                             "max_position_embeddings",
                                             "auto_map",
                                             "id2label",
                                             "label2id",
                                             "return_dict",
                                             "output_hidden_states",
                                             "output_attentions",
                                             "torchscript",
                                             "tokenizer_class",
                                             "use_bfloat16",
                                             "tie_encoder_decoder",
                                             "is_decoder",
                                             "is_encoder_decoder",
                                             "add_cross_attention",
                                             "pruned_heads",
                                             "chunk_size_feed_forward",
                                             "problem_type",
                                             "finetuning_task",
                                             "task_specific_params",
                                             "prefix",
                                             "sep_token_id",
                                             "decoder_start_token_id",
                                             "num_labels",
                                             "max_window_layers",
                                             "layer_types",
                                             "sliding_window",
                                             "use_sliding_window"};
  return keys;
}

ModelFamily family_of(const std::string& type, Reader& r) {
  if (type == "mixtral") return ModelFamily::Mixtral;
  if (type == "qwen2_moe") return ModelFamily::Qwen2Moe;
  if (type == "qwen3_moe") return ModelFamily::Qwen3Moe;
  if (type == "olmoe") return ModelFamily::Olmoe;
  if (type == "deepseek_v2") return ModelFamily::DeepseekV2;
  if (type == "deepseek_v3") return ModelFamily::DeepseekV3;
  if (type == "gpt_oss") return ModelFamily::GptOss;
  r.refuse("model_type", "\"" + type +
                             "\" is not a family this engine implements (mixtral, qwen2_moe, "
                             "qwen3_moe, olmoe, deepseek_v2, deepseek_v3, gpt_oss)");
}

// One rope dictionary (transformers 5's rope_parameters, or an older file's rope_scaling):
// default or YaRN, with every key mapped or refused by its dotted name.
void read_rope_dict(Reader& r, const std::string& name, const nlohmann::json& p, RunConfig& c) {
  if (!p.is_object()) r.refuse(name, "must be an object");
  auto& m = c.model;
  const auto number = [&](const std::string& key, const nlohmann::json& v) {
    if (!v.is_number()) r.refuse(name + "." + key, "must be a number, got " + v.dump());
    return v.get<double>();
  };
  for (const auto& [key, value] : p.items()) {
    if (key == "rope_theta") {
      m.rope_theta = number(key, value);
    } else if (key == "rope_type" || key == "type") {
      if (value == "yarn") {
        m.rope_scaling = protocol::RopeScaling::Yarn;
      } else if (value != "default") {
        r.refuse(
            name + "." + key,
            value.dump() + " is not supported: only \"default\" and \"yarn\" rotary embeddings");
      }
    } else if (key == "factor") {
      m.rope_factor = number(key, value);
    } else if (key == "original_max_position_embeddings") {
      if (!value.is_number_integer()) r.refuse(name + "." + key, "must be an integer");
      m.rope_original_max = value.get<int64_t>();
    } else if (key == "beta_fast") {
      m.rope_beta_fast = number(key, value);
    } else if (key == "beta_slow") {
      m.rope_beta_slow = number(key, value);
    } else if (key == "truncate") {
      if (!value.is_boolean()) r.refuse(name + "." + key, "must be true or false");
      m.rope_truncate = value.get<bool>();
    } else if (key == "mscale") {
      m.rope_mscale = number(key, value);
    } else if (key == "mscale_all_dim") {
      m.rope_mscale_all_dim = number(key, value);
    } else {
      r.refuse(name + "." + key, "is not supported (rope_theta, rope_type and YaRN's keys)");
    }
  }
}

void read_rope(Reader& r, RunConfig& c) {
  if (r.has("rope_parameters")) read_rope_dict(r, "rope_parameters", r.get("rope_parameters"), c);
  if (r.has("rope_theta")) c.model.rope_theta = r.number("rope_theta");
  if (r.has("rope_scaling")) read_rope_dict(r, "rope_scaling", r.get("rope_scaling"), c);
  r.used.insert("rope_scaling");
}

// layer_types: full attention everywhere, or (GPT-OSS) sliding windows in the layers it names.
void read_layer_types(Reader& r, RunConfig& c, bool sliding_allowed) {
  if (!r.has("layer_types")) return;
  std::vector<int64_t> sliding;
  const auto& types = r.get("layer_types");
  if (!types.is_array() || static_cast<int64_t>(types.size()) != c.model.layers)
    r.refuse("layer_types", "must list one type per layer");
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] == "sliding_attention" && sliding_allowed) {
      sliding.push_back(static_cast<int64_t>(i));
    } else if (types[i] != "full_attention") {
      r.refuse("layer_types", types[i].dump() + " layers are not implemented for this family");
    }
  }
  if (sliding.empty()) return;
  c.model.sliding_window = r.integer("sliding_window");
  if (c.model.sliding_window < 1) r.refuse("sliding_window", "must be >= 1");
  c.model.sliding_layers = protocol::format_layer_list(sliding);
}

void read_common(Reader& r, RunConfig& c) {
  auto& m = c.model;
  m.kind = protocol::ModelKind::Decoder;
  m.vocab = r.integer("vocab_size");
  m.dim = r.integer("hidden_size");
  m.layers = r.integer("num_hidden_layers");
  m.heads = r.integer("num_attention_heads");
  m.kv_heads = r.integer_or("num_key_value_heads", 0);
  if (m.kv_heads == m.heads) m.kv_heads = 0;
  m.head_dim = r.integer_or("head_dim", 0);
  if (m.heads > 0 && m.head_dim * m.heads == m.dim) m.head_dim = 0;
  m.norm_eps = r.number("rms_norm_eps");
  // The reference's embedding takes pad_token_id as padding_idx: that row gets no gradient.
  if (r.has("pad_token_id")) {
    const int64_t pad = r.integer("pad_token_id");
    if (pad < 0 || pad >= m.vocab) r.refuse("pad_token_id", "must be a token id below vocab_size");
    m.pad_token = pad;
  }
  m.tie_embeddings = r.boolean_or("tie_word_embeddings", false);
  const int64_t positions = r.integer_or("max_position_embeddings", 4096);
  m.seq_len = std::min<int64_t>(positions, 4096);
  read_rope(r, c);
  const std::string act =
      r.get("hidden_act").is_string() ? r.json["hidden_act"].get<std::string>() : std::string();
  if (act == "silu") {
    c.moe.activation = protocol::Activation::Silu;
  } else if (act == "gelu") {
    c.moe.activation = protocol::Activation::Gelu;
  } else if (act == "relu") {
    c.moe.activation = protocol::Activation::Relu;
  } else {
    r.refuse("hidden_act", r.json["hidden_act"].dump() + " is not supported (silu, gelu, relu)");
  }
  r.require("attention_dropout", {0, 0.0}, "dropout is not implemented");
  r.require("router_jitter_noise", {0, 0.0}, "router jitter is not implemented");
  if (r.has("router_aux_loss_coef")) c.train.aux_loss_weight = r.number("router_aux_loss_coef");
  for (const char* key : {"dtype", "torch_dtype"}) {
    if (!r.has(key) || !r.json[key].is_string()) continue;
    const auto dtype = r.json[key].get<std::string>();
    if (dtype == "bfloat16") c.train.dtype = protocol::Dtype::BFloat16;
    if (dtype == "float32") c.train.dtype = protocol::Dtype::Float32;
    if (dtype == "float16") c.train.dtype = protocol::Dtype::Float16;
  }
  if (r.boolean_or("use_sliding_window", false))
    r.refuse("use_sliding_window", "sliding-window attention is not implemented for this family");
  read_layer_types(r, c, c.model.family == ModelFamily::GptOss);
  // MoE defaults every family shares: a dropless, SwiGLU, top-k router without noise.
  auto& moe = c.moe;
  moe.expert_ffn = protocol::ExpertFfn::Glu;
  moe.fc1_bias = moe.fc2_bias = false;
  moe.capacity_factor = 0.0;
  moe.gate = protocol::Gate::Top;
  moe.gate_noise = 0.0;
  moe.fp32_gate = true;
  moe.batch_prioritized_routing = false;
  moe.aux_loss = protocol::AuxLoss::HfLoadBalancing;
  moe.top_k = r.integer("num_experts_per_tok");
  c.data.kind = protocol::DataKind::Synthetic;
}

// norm_topk_prob: the k weights rescaled to sum to 1 is the softmax over the k logits.
void read_norm_topk(Reader& r, RunConfig& c, bool fallback) {
  const bool norm = r.boolean_or("norm_topk_prob", fallback);
  c.moe.router = norm ? protocol::RouterKind::TopKSoftmax : protocol::RouterKind::SoftmaxTopK;
  c.moe.normalize_gate = norm;
}

// Qwen's layer rule: layer i is sparse when not in mlp_only_layers and (i + 1) % step == 0.
void read_qwen_layers(Reader& r, RunConfig& c) {
  const int64_t step = r.integer_or("decoder_sparse_step", 1);
  if (step < 1) r.refuse("decoder_sparse_step", "must be >= 1");
  std::vector<int64_t> only;
  r.used.insert("mlp_only_layers");
  if (r.has("mlp_only_layers")) {
    for (const auto& v : r.json["mlp_only_layers"]) {
      if (!v.is_number_integer()) r.refuse("mlp_only_layers", "must list layer indices");
      only.push_back(v.get<int64_t>());
    }
  }
  std::vector<int64_t> dense;
  for (int64_t i = 0; i < c.model.layers; ++i) {
    const bool sparse = std::find(only.begin(), only.end(), i) == only.end() && (i + 1) % step == 0;
    if (!sparse) dense.push_back(i);
  }
  c.model.dense_layers = protocol::format_layer_list(dense);
  c.model.dense_hidden = r.integer("intermediate_size");
}

void read_family(Reader& r, RunConfig& c) {
  auto& m = c.model;
  auto& moe = c.moe;
  switch (m.family) {
    case ModelFamily::Mixtral:
      moe.experts = experts_key(r);
      moe.hidden = r.integer("intermediate_size");
      moe.router = protocol::RouterKind::TopKSoftmax;
      break;
    case ModelFamily::Qwen2Moe:
      moe.experts = experts_key(r);
      moe.hidden = r.integer("moe_intermediate_size");
      moe.shared_hidden = r.integer_or("shared_expert_intermediate_size", 0);
      moe.shared_gate = moe.shared_hidden > 0;
      m.qkv_bias = r.boolean_or("qkv_bias", true);
      read_norm_topk(r, c, false);
      read_qwen_layers(r, c);
      break;
    case ModelFamily::Qwen3Moe:
      moe.experts = experts_key(r);
      moe.hidden = r.integer("moe_intermediate_size");
      m.qk_norm = protocol::QkNorm::Head;
      r.require("attention_bias", {false}, "attention biases are not implemented for qwen3_moe");
      read_norm_topk(r, c, false);
      read_qwen_layers(r, c);
      break;
    case ModelFamily::Olmoe:
      moe.experts = experts_key(r);
      moe.hidden = r.integer("intermediate_size");
      m.qk_norm = protocol::QkNorm::Full;
      r.require("attention_bias", {false}, "attention biases are not implemented for olmoe");
      r.require("clip_qkv", {}, "clipping q, k and v is not implemented");
      read_norm_topk(r, c, false);
      break;
    case ModelFamily::DeepseekV2:
    case ModelFamily::DeepseekV3:
      read_deepseek(r, c);
      break;
    case ModelFamily::GptOss:
      read_gpt_oss(r, c);
      break;
  }
}

}  // namespace

std::string hf_model_type(ModelFamily family) {
  return std::string(protocol::enum_name(family));
}

HfConfigImport config_from_hf(const nlohmann::json& json, const std::string& where) {
  if (!json.is_object()) throw HfError(where + ": not a JSON object");
  Reader r{json, where, {}, {}};
  const auto& type = r.get("model_type");
  if (!type.is_string()) r.refuse("model_type", "must be a string");
  RunConfig c;
  c.name = "imported";
  c.model.family = family_of(type.get<std::string>(), r);
  read_common(r, c);
  read_family(r, c);
  std::vector<std::string> unknown;
  for (const auto& [key, value] : json.items()) {
    if (r.used.count(key) || neutral_keys().count(key) || key.rfind('_', 0) == 0) continue;
    unknown.push_back(key);
  }
  if (!unknown.empty()) {
    std::string list;
    for (const auto& k : unknown) list += (list.empty() ? "\"" : ", \"") + k + "\"";
    throw HfError(where + ": keys this engine does not know how to honour: " + list);
  }
  HfConfigImport out;
  out.config = std::move(c);
  out.notes = std::move(r.notes);
  return out;
}

namespace {

const char* activation_name(protocol::Activation act) {
  switch (act) {
    case protocol::Activation::Relu:
      return "relu";
    case protocol::Activation::Gelu:
      return "gelu";
    case protocol::Activation::Silu:
      break;
  }
  return "silu";
}

// norm_topk_prob for the config's router, or refused.
bool norm_topk_of(const RunConfig& c) {
  if (c.moe.router == protocol::RouterKind::TopKSoftmax) return true;
  if (!c.moe.normalize_gate) return false;
  if (c.moe.top_k > 1) return true;
  cannot_export(c, "moe.normalize_gate",
                "Tutel's rule keeps the score at top_k 1, which no family computes; use "
                "moe.router \"top_k_softmax\" or normalize_gate false");
}

nlohmann::ordered_json rope_parameters(const protocol::ModelConfig& m) {
  nlohmann::ordered_json p = {{"rope_theta", m.rope_theta}, {"rope_type", "default"}};
  if (m.rope_scaling != protocol::RopeScaling::Yarn) return p;
  p["rope_type"] = "yarn";
  p["factor"] = m.rope_factor;
  p["original_max_position_embeddings"] = m.rope_original_max;
  p["beta_fast"] = m.rope_beta_fast;
  p["beta_slow"] = m.rope_beta_slow;
  p["truncate"] = m.rope_truncate;
  if (m.rope_mscale > 0) p["mscale"] = m.rope_mscale;
  if (m.rope_mscale_all_dim > 0) p["mscale_all_dim"] = m.rope_mscale_all_dim;
  return p;
}

}  // namespace

nlohmann::ordered_json config_to_hf(const RunConfig& c) {
  const auto& m = c.model;
  const auto& moe = c.moe;
  if (m.kind != protocol::ModelKind::Decoder) {
    throw HfError("export-hf: model.kind must be \"decoder\", got \"" + to_string(m.kind) + "\"");
  }
  if (moe.expert_ffn != protocol::ExpertFfn::Glu)
    cannot_export(c, "moe.expert_ffn", "the families' experts are \"glu\"");
  if ((moe.fc1_bias || moe.fc2_bias) && m.family != ModelFamily::GptOss)
    cannot_export(c, "moe.fc1_bias", "the family's experts have no biases");
  if (moe.gate != protocol::Gate::Top)
    cannot_export(c, "moe.gate", "the families' gate is \"top\"");
  const auto family = m.family;
  const bool qwen = family == ModelFamily::Qwen2Moe || family == ModelFamily::Qwen3Moe;
  const bool deepseek = family == ModelFamily::DeepseekV2 || family == ModelFamily::DeepseekV3;
  if ((m.attention == protocol::AttentionKind::Mla) != deepseek)
    cannot_export(c, "model.attention",
                  deepseek ? "DeepSeek's is \"mla\"" : "the family's is \"gqa\"");
  if ((moe.router == protocol::RouterKind::GroupLimitedTopK) != deepseek)
    cannot_export(c, "moe.router",
                  deepseek ? "DeepSeek's is \"group_limited_top_k\""
                           : "\"group_limited_top_k\" is DeepSeek's");
  if (m.rope_interleave != deepseek && family != ModelFamily::DeepseekV3)
    cannot_export(c, "model.rope_interleave", "differs from the family's");
  const auto expected_qk = family == ModelFamily::Qwen3Moe ? protocol::QkNorm::Head
                           : family == ModelFamily::Olmoe  ? protocol::QkNorm::Full
                                                           : protocol::QkNorm::None;
  if (m.qk_norm != expected_qk) cannot_export(c, "model.qk_norm", "differs from the family's");
  const bool gpt_oss = family == ModelFamily::GptOss;
  if (m.qkv_bias && family != ModelFamily::Qwen2Moe && !gpt_oss)
    cannot_export(c, "model.qkv_bias", "the family has no q/k/v biases");
  if (gpt_oss) {
    check_gpt_oss_export(c);
  } else {
    if (m.o_bias) cannot_export(c, "model.o_bias", "the family has no output bias");
    if (m.attention_sinks) cannot_export(c, "model.attention_sinks", "the family has no sinks");
    if (m.sliding_window > 0)
      cannot_export(c, "model.sliding_window", "the family has no sliding windows");
    if (moe.gate_bias) cannot_export(c, "moe.gate_bias", "the family's router has no bias");
    if (moe.swiglu_limit > 0) cannot_export(c, "moe.swiglu_limit", "the family's SwiGLU is plain");
  }
  if (moe.shared_hidden > 0 && family != ModelFamily::Qwen2Moe && !deepseek)
    cannot_export(c, "moe.shared_hidden", "the family has no shared expert");
  if (family == ModelFamily::Qwen2Moe && moe.shared_hidden > 0 && !moe.shared_gate)
    cannot_export(c, "moe.shared_gate", "Qwen2-MoE always gates its shared expert");
  const auto dense = protocol::parse_layer_list(m.dense_layers);
  if (!dense.empty() && !qwen && !deepseek)
    cannot_export(c, "model.dense_layers", "the family has MoE layers only");
  if (deepseek) check_deepseek_export(c, dense);
  if (family == ModelFamily::Mixtral && norm_topk_of(c) == false)
    cannot_export(c, "moe.router", "Mixtral renormalises its top-k weights");

  nlohmann::ordered_json j;
  const std::string type = hf_model_type(family);
  static const std::map<ModelFamily, const char*> architectures = {
      {ModelFamily::Mixtral, "MixtralForCausalLM"},
      {ModelFamily::Qwen2Moe, "Qwen2MoeForCausalLM"},
      {ModelFamily::Qwen3Moe, "Qwen3MoeForCausalLM"},
      {ModelFamily::Olmoe, "OlmoeForCausalLM"},
      {ModelFamily::DeepseekV2, "DeepseekV2ForCausalLM"},
      {ModelFamily::DeepseekV3, "DeepseekV3ForCausalLM"},
      {ModelFamily::GptOss, "GptOssForCausalLM"}};
  const auto arch = architectures.find(family);
  if (arch == architectures.end()) cannot_export(c, "model.family", "export is not implemented");
  j["architectures"] = {arch->second};
  j["model_type"] = type;
  j["vocab_size"] = m.vocab;
  j["hidden_size"] = m.dim;
  j["num_hidden_layers"] = m.layers;
  j["num_attention_heads"] = m.heads;
  j["num_key_value_heads"] = protocol::attention_kv_heads(m);
  if (!deepseek) j["head_dim"] = protocol::attention_head_dim(m);  // DeepSeek's is derived
  j["rms_norm_eps"] = m.norm_eps;
  j["rope_parameters"] = rope_parameters(m);
  j["tie_word_embeddings"] = m.tie_embeddings;
  j["pad_token_id"] = m.pad_token >= 0 ? nlohmann::ordered_json(m.pad_token) : nullptr;
  j["max_position_embeddings"] = std::max<int64_t>(m.seq_len, 4096);
  j["hidden_act"] = activation_name(moe.activation);
  j["num_experts_per_tok"] = moe.top_k;
  j["router_aux_loss_coef"] = c.train.aux_loss_weight;
  j["attention_dropout"] = 0.0;
  j["dtype"] = c.train.dtype == protocol::Dtype::BFloat16  ? "bfloat16"
               : c.train.dtype == protocol::Dtype::Float64 ? "float64"
                                                           : "float32";
  switch (family) {
    case ModelFamily::Mixtral:
      j["num_local_experts"] = moe.experts;
      j["intermediate_size"] = moe.hidden;
      j["router_jitter_noise"] = 0.0;
      break;
    case ModelFamily::Qwen2Moe:
    case ModelFamily::Qwen3Moe:
      j["num_experts"] = moe.experts;
      j["moe_intermediate_size"] = moe.hidden;
      j["intermediate_size"] = protocol::dense_mlp_hidden(c);
      j["norm_topk_prob"] = norm_topk_of(c);
      j["decoder_sparse_step"] = 1;
      j["mlp_only_layers"] = dense;
      if (family == ModelFamily::Qwen2Moe) {
        j["shared_expert_intermediate_size"] = moe.shared_hidden;
        j["qkv_bias"] = m.qkv_bias;
      } else {
        j["attention_bias"] = false;
      }
      j["use_sliding_window"] = false;
      break;
    case ModelFamily::Olmoe:
      j["num_experts"] = moe.experts;
      j["intermediate_size"] = moe.hidden;
      j["norm_topk_prob"] = norm_topk_of(c);
      j["attention_bias"] = false;
      j["clip_qkv"] = nullptr;
      break;
    case ModelFamily::DeepseekV2:
    case ModelFamily::DeepseekV3:
      write_deepseek(c, dense, j);
      break;
    case ModelFamily::GptOss:
      write_gpt_oss(c, j);
      break;
  }
  return j;
}

}  // namespace moe::hf
