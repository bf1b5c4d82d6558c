// RunConfig: the one description of a run (docs/PROTOCOL.md, "RunConfig"), shared by the GUI and
// the engine. Every member has the documented default, so a default-constructed RunConfig is the
// default run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/config_enums.h"
#include "protocol/config_error.h"

namespace moe::protocol {

struct ModelConfig {
  ModelKind kind = ModelKind::HelloWorld;
  int64_t dim = 512, layers = 1, heads = 8, seq_len = 128, vocab = 256;
  bool tie_embeddings = true;  // lm: the output head shares the token embedding's weight
  // decoder only (docs/MODELS.md): the Hugging Face family it maps to and its architecture.
  ModelFamily family = ModelFamily::Mixtral;
  int64_t kv_heads = 0;  // grouped-query attention: key/value heads (0: model.heads)
  int64_t head_dim = 0;  // 0: dim / heads
  double rope_theta = 10000.0;
  double norm_eps = 1e-6;  // RMSNorm's epsilon
  bool qkv_bias = false;
  QkNorm qk_norm = QkNorm::None;  // RMSNorm on queries and keys: per head or over all heads
  int64_t dense_hidden = 0;       // the dense MLP's width in dense layers (0: moe.hidden)
  std::string dense_layers;       // layers with a dense MLP instead of MoE: "0, 3" (0-based)
  int64_t pad_token = -1;         // its embedding row gets no gradient (-1: none)
  // Rotary embeddings turn adjacent channel pairs (DeepSeek) instead of the two halves.
  bool rope_interleave = false;
  AttentionKind attention = AttentionKind::Gqa;
  // mla only: the low ranks of the query (0: a full q_proj) and of the shared key/value latent,
  // and each head's rotary, non-rotary and value widths.
  int64_t q_lora_rank = 0, kv_lora_rank = 128, qk_rope_dim = 32, qk_nope_dim = 64, v_head_dim = 64;
  // gqa only (GPT-OSS): o_proj's bias, a learned per-head sink logit in each softmax, and
  // sliding-window attention over the last sliding_window positions (0: none) in sliding_layers
  // ("0, 2": 0-based; empty: every layer).
  bool o_bias = false, attention_sinks = false;
  int64_t sliding_window = 0;
  std::string sliding_layers;
  // YaRN (rope_scaling "yarn"): context `rope_factor` times rope_original_max, frequency ramp
  // between rope_beta_fast and rope_beta_slow rotations, attention factor from the factor (or
  // rope_mscale / rope_mscale_all_dim as DeepSeek's, 0: unused).
  RopeScaling rope_scaling = RopeScaling::None;
  double rope_factor = 1.0;
  int64_t rope_original_max = 4096;
  double rope_beta_fast = 32.0, rope_beta_slow = 1.0;
  bool rope_truncate = true;
  double rope_mscale = 0.0, rope_mscale_all_dim = 0.0;
};

struct BiasBalancingConfig {
  bool enabled = false;
  double rate = 1e-3;
};

struct MoeConfig {
  int64_t experts = 8, top_k = 2, hidden = 2048;
  Activation activation = Activation::Gelu;
  Gate gate = Gate::Top;
  double capacity_factor = 1.0, gate_noise = 0.0;
  bool fp32_gate = true, normalize_gate = true, batch_prioritized_routing = false, postscore = true,
       fc1_bias = true, fc2_bias = true;
  AuxLoss aux_loss = AuxLoss::GShard;
  int64_t cosine_proj_dim = 256;
  double cosine_init_t = 0.5;
  int64_t every = 1;
  BiasBalancingConfig bias_balancing;
  RouterKind router = RouterKind::SoftmaxTopK;
  // mlp: Tutel's fc1 -> activation -> fc2; glu: act(gate) * up -> down (SwiGLU with silu).
  ExpertFfn expert_ffn = ExpertFfn::Mlp;
  // decoder: a shared expert every token goes through, a gated MLP this wide (0: none), scaled by
  // sigmoid(x . w) when shared_gate (Qwen2-MoE).
  int64_t shared_hidden = 0;
  bool shared_gate = false;
  // router group_limited_top_k only (DeepSeek): the experts' score, their groups, how many groups
  // a token may choose from and how a group is scored, and the factor on the gate values.
  ScoreFunction score_function = ScoreFunction::Softmax;
  int64_t expert_groups = 1, topk_groups = 1;
  GroupScore group_score = GroupScore::Max;
  double routed_scaling = 1.0;
  // The gate's linear map has a bias (GPT-OSS's router).
  bool gate_bias = false;
  // glu experts with silu: GPT-OSS's clamped SwiGLU when swiglu_limit > 0, down(g · sigmoid(alpha
  // g) · (u + 1)) with g = min(gate x, limit) and u = clamp(up x, -limit, limit).
  double swiglu_limit = 0.0, swiglu_alpha = 1.0;
};

// parallel.adaptive_r's value for "auto" in JSON: the engine picks r for the placement.
inline constexpr int64_t kAdaptiveRAuto = -1;

// One run spans world_size() = nodes x nproc processes (ranks); the layout rules are in
// protocol/parallel_layout.h.
struct ParallelConfig {
  int64_t nodes = 1;
  int64_t nproc = 1;  // processes per node
  Backend backend = Backend::Auto;
  bool expert_parallel = true;
  int64_t adaptive_r = 1;  // 0, 1, a divisor of the sharding degree, or kAdaptiveRAuto
  int64_t a2a_overlap_degree = 1;
  double timeout_s = 300;  // collective time-out: a dead or stalled rank stops the others
  int64_t world_size() const { return nodes * nproc; }
};

struct TrainConfig {
  int64_t steps = 100, batch_size = 16, grad_accum = 1;
  Optimizer optimizer = Optimizer::AdamW;
  double lr = 1e-3, weight_decay = 0.0, momentum = 0.0;
  Schedule schedule = Schedule::Constant;
  int64_t warmup_steps = 0;
  Dtype dtype = Dtype::Float32;
  bool amp = false;
  double clip_grad_norm = 0.0, aux_loss_weight = 0.01, z_loss_weight = 0.0;
  int64_t eval_every = 0, eval_batches = 10, checkpoint_every = 0, keep_checkpoints = 2;
  Device device = Device::Auto;
  int64_t threads = 0;
};

struct DataConfig {
  DataKind kind = DataKind::Synthetic;
  std::string path;
  double val_fraction = 0.1;
  // text and jsonl: a tokenizer.json (or a folder holding one) that encodes the documents into a
  // token cache; "" reads bytes (docs/MODELS.md, "Data for these models").
  std::string tokenizer;
  std::string text_field = "text";  // jsonl: the field of each line that holds the document
  int64_t eos_token = -1;           // the id after each document (-1: the tokenizer's EOS)
  std::string cache_dir;            // where token caches go ("": beside the data)
};

struct TelemetryConfig {
  int64_t every = 1;
  bool expert_load = true, phases = true, trace = false;
  // Steps between captures of every MoE layer's input and weights (0: never); see capture_max_mb.
  int64_t capture_every = 0;
  // A run stops capturing once its captures/ folder would pass this many MiB.
  int64_t capture_max_mb = 256;
  bool tensorboard = false;  // also write TensorBoard event files under tensorboard/
};

struct RunConfig {
  int64_t schema = 1;
  std::string name = "demo";
  int64_t seed = 1;
  ModelConfig model;
  MoeConfig moe;
  ParallelConfig parallel;
  TrainConfig train;
  DataConfig data;
  TelemetryConfig telemetry;
};

// The schema version this build reads and writes.
inline constexpr int64_t kConfigSchema = 1;

// The full resolved config, every key present. nlohmann::json sorts keys; to_ordered_json keeps
// the documented key order (what save_config_file writes, for humans reading the file).
nlohmann::json to_json(const RunConfig& config);
nlohmann::ordered_json to_ordered_json(const RunConfig& config);

// Structural parse: missing keys take defaults; unknown keys, wrong types and non-integral or
// out-of-range integers are problems. Appends every problem to *problems (if not null) and
// returns the config with the well-typed values applied. Never throws for any JSON value.
RunConfig parse_config(const nlohmann::json& json, std::vector<ConfigProblem>* problems);

// parse_config, throwing ConfigError with every problem if there is any. Does not run
// validate() (config_validation.h): use check() for both.
RunConfig config_from_json(const nlohmann::json& json);

// Reads a JSON file. ConfigError when the file cannot be read (names the file and why) or is not
// JSON (names the file, line and column).
nlohmann::json read_config_json_file(const std::string& path);

// read_config_json_file + config_from_json; ConfigError carries the file name.
RunConfig load_config_file(const std::string& path);

// Writes the resolved config (documented key order, 2-space indent) to a temporary file next to
// `path` and renames it over `path`, so readers never see a half-written file. std::runtime_error
// on I/O failure.
void save_config_file(const std::string& path, const RunConfig& config);

}  // namespace moe::protocol
