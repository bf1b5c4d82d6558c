#include "protocol/config_validation.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "protocol/config_enums.h"
#include "protocol/config_fields.h"
#include "protocol/decoder_layout.h"
#include "protocol/json_text.h"
#include "protocol/parallel_layout.h"

namespace moe::protocol {
namespace {

using detail::format_number;
using detail::quote;

// Collects problems; each helper is one kind of rule so messages stay uniform.
class Checker {
 public:
  explicit Checker(std::vector<ConfigProblem>& out) : out_(out) {}

  void add(const char* pointer, std::string message) {
    out_.push_back({pointer, std::move(message)});
  }

  // lo <= v <= hi; `hi_source` names the key the upper bound comes from, if any. True when in.
  bool between(const char* pointer, int64_t v, int64_t lo, int64_t hi,
               const char* hi_source = nullptr) {
    if (v >= lo && v <= hi) return true;
    std::string message = "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    if (hi_source) message += std::string(" (") + hi_source + ")";
    add(pointer, message + ", got " + std::to_string(v));
    return false;
  }

  void at_least(const char* pointer, int64_t v, int64_t lo) {
    if (v < lo) add(pointer, "must be >= " + std::to_string(lo) + ", got " + std::to_string(v));
  }

  bool finite(const char* pointer, double v) {
    if (std::isfinite(v)) return true;
    add(pointer, "must be a finite number, got " + format_number(v));
    return false;
  }

  void positive(const char* pointer, double v) {
    if (finite(pointer, v) && !(v > 0)) add(pointer, "must be > 0, got " + format_number(v));
  }

  void non_negative(const char* pointer, double v) {
    if (finite(pointer, v) && v < 0) add(pointer, "must be >= 0, got " + format_number(v));
  }

  // A list of layer indices ("0, 3"), each below `layers`.
  void layer_list(const char* pointer, const std::string& text, int64_t layers) {
    try {
      for (int64_t layer : parse_layer_list(text)) {
        if (layer >= layers) {
          add(pointer, "layer " + std::to_string(layer) + " is not below model.layers (" +
                           std::to_string(layers) + ")");
          return;
        }
      }
    } catch (const std::invalid_argument& e) {
      add(pointer, e.what());
    }
  }

  // [0, 1): fractions and decay factors where 1 would mean "everything" / "never forget".
  void unit_interval(const char* pointer, double v) {
    if (finite(pointer, v) && !(v >= 0 && v < 1)) {
      add(pointer, "must be in [0, 1), got " + format_number(v));
    }
  }

 private:
  std::vector<ConfigProblem>& out_;
};

// Lists every key's JSON pointer in the documented order (config_fields.h).
struct KeyOrder {
  std::vector<std::string>& pointers;
  std::string prefix;

  template <class T>
  void field(const char* key, const T&) {
    pointers.push_back(prefix + "/" + key);
  }
  template <class E>
  void choice(const char* key, const E&) {
    pointers.push_back(prefix + "/" + key);
  }
  void int_or_auto(const char* key, const int64_t&, int64_t) {
    pointers.push_back(prefix + "/" + key);
  }
  template <class F>
  void section(const char* key, F&& body) {
    const std::string outer = prefix;
    prefix += std::string("/") + key;
    body();
    prefix = outer;
  }
};

// Each key's position in the documented key order, "" (the whole document) first, unknown keys
// last.
std::size_t key_position(const std::string& pointer) {
  static const std::vector<std::string> order = [] {
    std::vector<std::string> out{""};
    KeyOrder visitor{out, ""};
    const RunConfig defaults;
    detail::visit_config(defaults, visitor);
    return out;
  }();
  auto it = std::find(order.begin(), order.end(), pointer);
  return static_cast<std::size_t>(it - order.begin());
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

void check_top_level(const RunConfig& c, Checker& k) {
  if (c.schema != kConfigSchema) {
    k.add("/schema",
          "must be " + std::to_string(kConfigSchema) + ", got " + std::to_string(c.schema));
  }
  if (c.name.empty()) {
    k.add("/name", "must not be empty");
  } else if (c.name.size() > limits::kMaxNameLength) {
    k.add("/name", "must be at most " + std::to_string(limits::kMaxNameLength) +
                       " characters, got " + std::to_string(c.name.size()));
  } else if (!std::all_of(c.name.begin(), c.name.end(), is_name_char)) {
    k.add("/name",
          "may contain only letters, digits, '.', '_' and '-' (it names the run "
          "directory), got " +
              quote(c.name));
  }
}

// Multi-head latent attention's widths, and the attention keys it has no use for.
void check_mla(const ModelConfig& m, Checker& k) {
  k.between("/model/q_lora_rank", m.q_lora_rank, 0, limits::kMaxDim);
  k.between("/model/kv_lora_rank", m.kv_lora_rank, 1, limits::kMaxDim);
  k.between("/model/qk_rope_dim", m.qk_rope_dim, 2, limits::kMaxDim);
  if (m.qk_rope_dim % 2 != 0) {
    k.add("/model/qk_rope_dim",
          "must be even (rotary embeddings turn pairs), got " + std::to_string(m.qk_rope_dim));
  }
  k.between("/model/qk_nope_dim", m.qk_nope_dim, 0, limits::kMaxDim);
  k.between("/model/v_head_dim", m.v_head_dim, 1, limits::kMaxDim);
  // Every head expands its keys and values from the one shared latent.
  if (m.kv_heads != 0 && m.kv_heads != m.heads) {
    k.add("/model/kv_heads", "must be 0 or model.heads with model.attention \"mla\", got " +
                                 std::to_string(m.kv_heads));
  }
  if (m.head_dim != 0) {
    k.add("/model/head_dim",
          "must be 0 with model.attention \"mla\" (model.qk_nope_dim, qk_rope_dim and v_head_dim "
          "give the widths), got " +
              std::to_string(m.head_dim));
  }
  if (m.qk_norm != QkNorm::None)
    k.add("/model/qk_norm", "must be \"none\" with model.attention \"mla\"");
  if (m.qkv_bias) k.add("/model/qkv_bias", "must be false with model.attention \"mla\"");
}

// GPT-OSS's attention keys and YaRN.
void check_gpt_oss_attention(const ModelConfig& m, Checker& k) {
  const bool mla = m.attention == AttentionKind::Mla;
  if (mla && (m.o_bias || m.attention_sinks || m.sliding_window > 0)) {
    const char* key = m.o_bias            ? "/model/o_bias"
                      : m.attention_sinks ? "/model/attention_sinks"
                                          : "/model/sliding_window";
    k.add(key, "is for model.attention \"gqa\" only");
  }
  k.between("/model/sliding_window", m.sliding_window, 0, limits::kMaxSeqLen);
  k.layer_list("/model/sliding_layers", m.sliding_layers, m.layers);
  if (!m.sliding_layers.empty() && m.sliding_window == 0)
    k.add("/model/sliding_layers", "needs model.sliding_window > 0");
  if (m.rope_scaling == RopeScaling::Yarn) {
    if (k.finite("/model/rope_factor", m.rope_factor) && !(m.rope_factor >= 1))
      k.add("/model/rope_factor", "must be >= 1, got " + format_number(m.rope_factor));
    k.between("/model/rope_original_max", m.rope_original_max, 1, limits::kMaxSeqLen);
    k.positive("/model/rope_beta_fast", m.rope_beta_fast);
    k.positive("/model/rope_beta_slow", m.rope_beta_slow);
    k.non_negative("/model/rope_mscale", m.rope_mscale);
    k.non_negative("/model/rope_mscale_all_dim", m.rope_mscale_all_dim);
  }
}

// The decoder's attention and layer keys (docs/MODELS.md).
void check_decoder(const RunConfig& c, Checker& k) {
  const ModelConfig& m = c.model;
  k.between("/model/heads", m.heads, 1, limits::kMaxDim);
  if (m.attention == AttentionKind::Mla) check_mla(m, k);
  check_gpt_oss_attention(m, k);
  k.between("/model/head_dim", m.head_dim, 0, limits::kMaxDim);
  const int64_t head_dim = attention_head_dim(m);
  if (m.attention == AttentionKind::Mla) {
    // the widths are checked above
  } else if (m.head_dim == 0 && m.heads >= 1 && m.dim % m.heads != 0) {
    k.add("/model/heads", "must divide model.dim (" + std::to_string(m.dim) +
                              ") when model.head_dim is 0, got " + std::to_string(m.heads));
  } else if (head_dim % 2 != 0) {
    // Rotary embeddings turn pairs of a head's channels.
    k.add(m.head_dim > 0 ? "/model/head_dim" : "/model/heads",
          "the head width must be even for rotary embeddings, got " + std::to_string(head_dim));
  }
  k.between("/model/kv_heads", m.kv_heads, 0, limits::kMaxDim);
  if (m.kv_heads >= 1 && m.heads >= 1 && m.heads % m.kv_heads != 0) {
    k.add("/model/kv_heads", "must divide model.heads (" + std::to_string(m.heads) + "), got " +
                                 std::to_string(m.kv_heads));
  }
  k.between("/model/pad_token", m.pad_token, -1, m.vocab - 1, "model.vocab - 1");
  k.positive("/model/rope_theta", m.rope_theta);
  k.positive("/model/norm_eps", m.norm_eps);
  k.between("/model/dense_hidden", m.dense_hidden, 0, limits::kMaxHidden);
  k.layer_list("/model/dense_layers", m.dense_layers, m.layers);
  if (c.moe.every != 1) {
    k.add("/moe/every",
          "must be 1 for model.kind \"decoder\" (model.dense_layers names its dense "
          "layers), got " +
              std::to_string(c.moe.every));
  }
}

void check_model(const RunConfig& c, Checker& k) {
  const ModelConfig& m = c.model;
  k.between("/model/dim", m.dim, 2, limits::kMaxDim);
  if (m.dim >= 2 && m.dim % 2 != 0)
    k.add("/model/dim", "must be even, got " + std::to_string(m.dim));
  k.between("/model/layers", m.layers, 1, limits::kMaxLayers);
  if (m.kind != ModelKind::Decoder) {
    const std::string needs = "needs model.kind \"decoder\", got " + quote(to_string(m.kind));
    if (m.attention != AttentionKind::Gqa) k.add("/model/attention", needs);
    if (m.o_bias) k.add("/model/o_bias", needs);
    if (m.attention_sinks) k.add("/model/attention_sinks", needs);
    if (m.sliding_window != 0) k.add("/model/sliding_window", needs);
    if (m.rope_scaling != RopeScaling::None) k.add("/model/rope_scaling", needs);
  }
  if (m.kind == ModelKind::Decoder) {
    check_decoder(c, k);
  } else if (m.kind == ModelKind::Lm && m.dim >= 1) {
    k.between("/model/heads", m.heads, 1, m.dim, "model.dim");
    if (m.heads >= 1 && m.heads <= m.dim && m.dim % m.heads != 0) {
      k.add("/model/heads", "must divide model.dim (" + std::to_string(m.dim) + "), got " +
                                std::to_string(m.heads));
    }
  } else {
    k.at_least("/model/heads", m.heads, 1);
  }
  k.between("/model/seq_len", m.seq_len, 1, limits::kMaxSeqLen);
  k.between("/model/vocab", m.vocab, 1, limits::kMaxVocab);
  // Text read as bytes: every byte value must be a token.
  const bool byte_text =
      (c.data.kind == DataKind::Text || c.data.kind == DataKind::Jsonl) && c.data.tokenizer.empty();
  if ((m.kind == ModelKind::Lm || m.kind == ModelKind::Decoder) && byte_text && m.vocab >= 1 &&
      m.vocab < 256) {
    k.add("/model/vocab", "must be >= 256 for byte-level text (data.kind " +
                              quote(to_string(c.data.kind)) + " without data.tokenizer), got " +
                              std::to_string(m.vocab));
  }
}

// DeepSeek's group-limited routing; its keys mean nothing to the other routers.
void check_group_routing(const MoeConfig& m, Checker& k) {
  if (m.router != RouterKind::GroupLimitedTopK) {
    const std::string needs = "is used by moe.router \"group_limited_top_k\" only";
    if (m.score_function != ScoreFunction::Softmax) k.add("/moe/score_function", needs);
    if (m.expert_groups != 1) k.add("/moe/expert_groups", needs + " (leave it 1)");
    if (m.topk_groups != 1) k.add("/moe/topk_groups", needs + " (leave it 1)");
    if (m.routed_scaling != 1.0) k.add("/moe/routed_scaling", needs + " (leave it 1)");
    return;
  }
  k.positive("/moe/routed_scaling", m.routed_scaling);
  if (!k.between("/moe/expert_groups", m.expert_groups, 1, std::max<int64_t>(m.experts, 1),
                 "moe.experts"))
    return;
  if (m.experts % m.expert_groups != 0) {
    k.add("/moe/expert_groups", "must divide moe.experts (" + std::to_string(m.experts) +
                                    "), got " + std::to_string(m.expert_groups));
    return;
  }
  if (!k.between("/moe/topk_groups", m.topk_groups, 1, m.expert_groups, "moe.expert_groups"))
    return;
  const int64_t per_group = m.experts / m.expert_groups;
  if (m.top_k > m.topk_groups * per_group) {
    k.add("/moe/top_k", "must be at most moe.topk_groups x experts per group (" +
                            std::to_string(m.topk_groups * per_group) + "), got " +
                            std::to_string(m.top_k));
  }
  if (m.group_score == GroupScore::TopTwoSum && m.expert_groups > 1 && per_group < 2) {
    k.add("/moe/group_score",
          "\"top2_sum\" needs at least 2 experts per group, got " + std::to_string(per_group));
  }
}

void check_moe(const RunConfig& c, Checker& k) {
  const MoeConfig& m = c.moe;
  k.between("/moe/experts", m.experts, 1, limits::kMaxExperts);
  k.between("/moe/top_k", m.top_k, 1, std::max<int64_t>(m.experts, 1), "moe.experts");
  k.between("/moe/hidden", m.hidden, 1, limits::kMaxHidden);
  if (k.finite("/moe/capacity_factor", m.capacity_factor) &&
      std::fabs(m.capacity_factor) > limits::kMaxAbsCapacityFactor) {
    k.add("/moe/capacity_factor", "must be between " +
                                      format_number(-limits::kMaxAbsCapacityFactor) + " and " +
                                      format_number(limits::kMaxAbsCapacityFactor) + ", got " +
                                      format_number(m.capacity_factor));
  }
  k.non_negative("/moe/gate_noise", m.gate_noise);
  // The load estimate of load_importance divides by the noise scale.
  if (m.aux_loss == AuxLoss::LoadImportance && m.gate_noise == 0.0) {
    k.add("/moe/gate_noise", "must be > 0 when moe.aux_loss is \"load_importance\", got " +
                                 format_number(m.gate_noise));
  }
  k.between("/moe/cosine_proj_dim", m.cosine_proj_dim, 1, limits::kMaxDim);
  k.positive("/moe/cosine_init_t", m.cosine_init_t);  // the gate starts from ln(1 / t)
  k.at_least("/moe/every", m.every, 1);
  k.non_negative("/moe/bias_balancing/rate", m.bias_balancing.rate);
  k.between("/moe/shared_hidden", m.shared_hidden, 0, limits::kMaxHidden);
  if (m.shared_hidden > 0 && c.model.kind != ModelKind::Decoder) {
    k.add("/moe/shared_hidden",
          "shared experts need model.kind \"decoder\", got " + quote(to_string(c.model.kind)));
  }
  if (m.shared_gate && m.shared_hidden == 0) {
    k.add("/moe/shared_gate", "gates a shared expert: needs moe.shared_hidden > 0");
  }
  check_group_routing(m, k);
  if (m.swiglu_limit != 0.0) {
    k.positive("/moe/swiglu_limit", m.swiglu_limit);
    k.positive("/moe/swiglu_alpha", m.swiglu_alpha);
    if (m.expert_ffn != ExpertFfn::Glu || m.activation != Activation::Silu ||
        c.model.kind != ModelKind::Decoder) {
      k.add("/moe/swiglu_limit",
            "the clamped SwiGLU needs model.kind \"decoder\", moe.expert_ffn \"glu\" and "
            "moe.activation \"silu\"");
    } else if (m.shared_hidden > 0 || !c.model.dense_layers.empty()) {
      k.add("/moe/swiglu_limit",
            "the clamped SwiGLU is the routed experts' only: no shared expert or dense layers");
    }
  } else if (m.swiglu_alpha != 1.0) {
    k.add("/moe/swiglu_alpha", "is used when moe.swiglu_limit > 0 (leave it 1)");
  }
  if (m.gate_bias && m.gate != Gate::Top) k.add("/moe/gate_bias", "needs moe.gate \"top\"");
}

// Ranges of the parallel keys; the rules between them and the rest of the config are the
// layout's (parallel_layout.h).
void check_parallel(const RunConfig& c, Checker& k) {
  const ParallelConfig& p = c.parallel;
  k.between("/parallel/nodes", p.nodes, 1, limits::kMaxProcs);
  k.between("/parallel/nproc", p.nproc, 1, limits::kMaxProcs);
  const auto in_range = [](int64_t v) { return v >= 1 && v <= limits::kMaxProcs; };
  if (in_range(p.nodes) && in_range(p.nproc) && !config_world(p)) {
    k.add("/parallel/nproc", "parallel.nodes x parallel.nproc must be at most " +
                                 std::to_string(limits::kMaxProcs) + " ranks, got " +
                                 std::to_string(p.world_size()));
  }
  if (k.finite("/parallel/timeout_s", p.timeout_s) &&
      !(p.timeout_s >= limits::kMinTimeoutS && p.timeout_s <= limits::kMaxTimeoutS)) {
    k.add("/parallel/timeout_s", "must be from " + format_number(limits::kMinTimeoutS) + " to " +
                                     format_number(limits::kMaxTimeoutS) +
                                     " (a second to a week), got " + format_number(p.timeout_s));
  }
}

// The layout's problems on the config's own world; none while the world itself is out of range.
std::vector<ConfigProblem> config_layout_problems(const RunConfig& c) {
  const std::optional<int64_t> world = config_world(c.parallel);
  return world ? layout_problems(c, *world) : std::vector<ConfigProblem>{};
}

void check_train(const RunConfig& c, Checker& k) {
  const TrainConfig& t = c.train;
  k.at_least("/train/steps", t.steps, 1);
  k.between("/train/batch_size", t.batch_size, 1, limits::kMaxBatchSize);
  k.at_least("/train/grad_accum", t.grad_accum, 1);
  k.positive("/train/lr", t.lr);
  k.unit_interval("/train/weight_decay", t.weight_decay);
  k.unit_interval("/train/momentum", t.momentum);
  k.at_least("/train/warmup_steps", t.warmup_steps, 0);
  k.non_negative("/train/clip_grad_norm", t.clip_grad_norm);  // 0 = no clipping
  k.non_negative("/train/aux_loss_weight", t.aux_loss_weight);
  k.non_negative("/train/z_loss_weight", t.z_loss_weight);
  k.at_least("/train/eval_every", t.eval_every, 0);  // 0 = never
  k.at_least("/train/eval_batches", t.eval_batches, 1);
  k.at_least("/train/checkpoint_every", t.checkpoint_every, 0);  // 0 = never
  k.at_least("/train/keep_checkpoints", t.keep_checkpoints, 1);
  k.between("/train/threads", t.threads, 0, limits::kMaxThreads);  // 0 = library default
}

// The files data.path and data.tokenizer name exist on this machine. A Megatron data set is a
// prefix: PREFIX.bin and PREFIX.idx.
void check_data_files(const DataConfig& d, Checker& k) {
  std::error_code ec;
  if (d.kind == DataKind::Megatron) {
    for (const char* suffix : {".idx", ".bin"}) {
      if (!std::filesystem::is_regular_file(d.path + suffix, ec)) {
        k.add("/data/path", "not found: " + quote(d.path + suffix) +
                                " (a Megatron data set is named by its prefix: PREFIX.bin and "
                                "PREFIX.idx)");
      }
    }
  } else if (!std::filesystem::exists(d.path, ec)) {
    k.add("/data/path", "not found: " + quote(d.path));
  }
  const bool tokenized = d.kind == DataKind::Text || d.kind == DataKind::Jsonl;
  if (tokenized && !d.tokenizer.empty() && !std::filesystem::is_regular_file(d.tokenizer, ec) &&
      !std::filesystem::is_regular_file(std::filesystem::path(d.tokenizer) / "tokenizer.json",
                                        ec)) {
    k.add("/data/tokenizer",
          "not found: " + quote(d.tokenizer) + " (a tokenizer.json, or a folder holding one)");
  }
}

void check_data(const RunConfig& c, const ValidateOptions& options, Checker& k) {
  const DataConfig& d = c.data;
  const bool images = d.kind == DataKind::Idx || d.kind == DataKind::Cifar10;
  if (images && c.model.kind != ModelKind::Image) {
    k.add("/data/kind", quote(to_string(d.kind)) + " needs model.kind \"image\", got " +
                            quote(to_string(c.model.kind)));
  } else if (!images && d.kind != DataKind::Synthetic && c.model.kind != ModelKind::Lm &&
             c.model.kind != ModelKind::Decoder) {
    k.add("/data/kind", quote(to_string(d.kind)) + " needs model.kind \"lm\" or \"decoder\", got " +
                            quote(to_string(c.model.kind)));
  }
  // synthetic generates its own data and ignores data.path.
  if (d.kind != DataKind::Synthetic) {
    if (d.path.empty()) {
      k.add("/data/path", "is required for data.kind " + quote(to_string(d.kind)));
    } else if (options.check_files) {
      check_data_files(d, k);
    }
  }
  k.unit_interval("/data/val_fraction", d.val_fraction);
  if (d.kind == DataKind::Jsonl && d.text_field.empty()) {
    k.add("/data/text_field", "must name the JSON field that holds each document");
  }
  k.at_least("/data/eos_token", d.eos_token, -1);
  if (d.eos_token >= c.model.vocab && c.model.vocab >= 1) {
    k.add("/data/eos_token", "must be below model.vocab (" + std::to_string(c.model.vocab) +
                                 "), got " + std::to_string(d.eos_token));
  }
}

}  // namespace

std::vector<ConfigProblem> validate(const RunConfig& config, const ValidateOptions& options) {
  std::vector<ConfigProblem> problems;
  Checker k(problems);
  check_top_level(config, k);
  check_model(config, k);
  check_moe(config, k);
  check_parallel(config, k);
  check_train(config, k);
  check_data(config, options, k);
  k.at_least("/telemetry/every", config.telemetry.every, 1);
  k.at_least("/telemetry/capture_every", config.telemetry.capture_every, 0);
  k.at_least("/telemetry/capture_max_mb", config.telemetry.capture_max_mb, 1);
  for (ConfigProblem& p : config_layout_problems(config)) problems.push_back(std::move(p));
  sort_by_key_order(problems);
  return problems;
}

void sort_by_key_order(std::vector<ConfigProblem>& problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const ConfigProblem& a, const ConfigProblem& b) {
                     return key_position(a.pointer) < key_position(b.pointer);
                   });
}

std::vector<ConfigProblem> check(const nlohmann::json& json, RunConfig* out,
                                 const ValidateOptions& options) {
  std::vector<ConfigProblem> problems;
  try {
    RunConfig config = parse_config(json, &problems);
    const auto parse_end = static_cast<std::ptrdiff_t>(problems.size());
    for (ConfigProblem& p : validate(config, options)) {
      bool seen = std::any_of(problems.begin(), problems.begin() + parse_end,
                              [&](const ConfigProblem& q) { return q.pointer == p.pointer; });
      if (!seen) problems.push_back(std::move(p));
    }
    if (out) *out = std::move(config);
  } catch (const std::exception& e) {  // only bad_alloc can get here; keep the promise
    problems.push_back({"", std::string("internal error: ") + e.what()});
  }
  return problems;
}

}  // namespace moe::protocol
