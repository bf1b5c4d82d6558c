#include "base/experiment/config_field_catalog.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "protocol/config_enums.h"
#include "protocol/config_fields.h"
#include "protocol/config_validation.h"

namespace moe::ui {
namespace {

namespace limits = protocol::limits;
constexpr int64_t kIntMax = std::numeric_limits<int>::max();  // QSpinBox holds an int
constexpr int64_t kIntMin = std::numeric_limits<int>::min();

// What the form knows about a key beyond its type. Ranges mirror config_validation.cpp so a spin
// box does not offer values the validator rejects; rules between keys (top_k <= experts) are left
// to validation, which explains them.
struct Description {
  const char* label;
  const char* help;
  int64_t min = 0, max = kIntMax;
};

const std::unordered_map<std::string, Description>& descriptions() {
  static const std::unordered_map<std::string, Description> table = {
      {"/schema", {"Schema", "Config format version this build reads and writes.", 1, 1}},
      {"/name", {"Name", "Run name: letters, digits, '.', '_' and '-'. Names the run directory."}},
      {"/seed", {"Seed", "Random seed for weights, data order and gate noise.", kIntMin, kIntMax}},
      {"/model/kind",
       {"Kind",
        "helloworld: Tutel's one-layer benchmark; lm: byte-level decoder-only "
        "transformer; image: patch classifier over IDX or CIFAR-10 images; decoder: the "
        "Hugging Face MoE families (model.family: RMSNorm, rotary, grouped-query attention)."}},
      {"/model/dim",
       {"Width (dim)", "Model width M: token size entering each MoE layer. Even.", 2,
        limits::kMaxDim}},
      {"/model/layers",
       {"Layers", "Transformer / image blocks (helloworld has one MoE layer).", 1,
        limits::kMaxLayers}},
      {"/model/heads",
       {"Attention heads",
        "lm and decoder: attention (query) heads; must divide model.dim unless model.head_dim "
        "is set.",
        1, limits::kMaxDim}},
      {"/model/seq_len",
       {"Sequence length", "Tokens per sample (helloworld and lm).", 1, limits::kMaxSeqLen}},
      {"/model/vocab",
       {"Vocabulary", "lm only: token ids; >= 256 for byte-level text.", 1, limits::kMaxVocab}},
      {"/model/tie_embeddings",
       {"Tie embeddings", "lm and decoder: the output head shares the token embedding's weight."}},
      {"/model/family",
       {"Family",
        "decoder only: the Hugging Face architecture it maps to on import and export "
        "(mixtral, qwen2_moe, qwen3_moe, olmoe, deepseek_v2, deepseek_v3, gpt_oss)."}},
      {"/model/kv_heads",
       {"Key/value heads",
        "decoder only: grouped-query attention's key/value heads (divides model.heads); 0: "
        "model.heads.",
        0, limits::kMaxDim}},
      {"/model/head_dim",
       {"Head width", "decoder only: width of each attention head (even); 0: dim / heads.", 0,
        limits::kMaxDim}},
      {"/model/rope_theta", {"RoPE base", "decoder only: the rotary embeddings' base θ."}},
      {"/model/norm_eps", {"Norm epsilon", "decoder only: RMSNorm's ε."}},
      {"/model/pad_token",
       {"Padding token",
        "decoder only: the padding token's id; its embedding row starts at zero and gets no "
        "gradient (the reference's padding_idx). -1: none.",
        -1, limits::kMaxVocab}},
      {"/model/qkv_bias",
       {"QKV bias", "decoder only: the query, key and value projections have biases (Qwen2)."}},
      {"/model/qk_norm",
       {"QK norm",
        "decoder only: RMSNorm on queries and keys, per head (Qwen3) or over all heads "
        "(OLMoE), or none."}},
      {"/model/dense_hidden",
       {"Dense MLP width", "decoder only: the gated MLP's width in dense layers; 0: moe.hidden.", 0,
        limits::kMaxHidden}},
      {"/model/dense_layers",
       {"Dense layers",
        "decoder only: 0-based layers with a dense MLP instead of a MoE layer, e.g. \"0, 3\"."}},
      {"/model/rope_interleave",
       {"Interleaved RoPE",
        "decoder only: rotary embeddings turn adjacent channel pairs (DeepSeek) instead of a "
        "head's two halves."}},
      {"/model/attention",
       {"Attention",
        "decoder only: gqa, grouped-query attention; mla, DeepSeek's multi-head latent "
        "attention (keys and values expanded from one low-rank latent per token)."}},
      {"/model/q_lora_rank",
       {"Query rank", "mla only: the query's low rank (q_a_proj, q_b_proj); 0: a full q_proj.", 0,
        limits::kMaxDim}},
      {"/model/kv_lora_rank",
       {"Key/value rank", "mla only: the width of the key/value latent a token caches.", 1,
        limits::kMaxDim}},
      {"/model/qk_rope_dim",
       {"Rotary width",
        "mla only: each head's query/key channels with rotary embeddings (even); the key's are "
        "shared by all heads.",
        2, limits::kMaxDim}},
      {"/model/qk_nope_dim",
       {"Non-rotary width", "mla only: each head's query/key channels without rotary embeddings.",
        0, limits::kMaxDim}},
      {"/model/v_head_dim",
       {"Value width", "mla only: each head's value width.", 1, limits::kMaxDim}},
      {"/model/o_bias", {"Output bias", "decoder, gqa: o_proj has a bias (GPT-OSS)."}},
      {"/model/attention_sinks",
       {"Attention sinks",
        "decoder, gqa: a learned logit per head joins each softmax and takes its share of the "
        "weight, then is dropped (GPT-OSS)."}},
      {"/model/sliding_window",
       {"Sliding window",
        "decoder, gqa: in model.sliding_layers a query sees only the last this many positions "
        "(itself included); 0: none.",
        0, limits::kMaxSeqLen}},
      {"/model/sliding_layers",
       {"Sliding layers",
        "decoder: 0-based layers with sliding-window attention, e.g. \"0, 2\"; empty: every "
        "layer when model.sliding_window > 0."}},
      {"/model/rope_scaling",
       {"RoPE scaling",
        "decoder: none, or yarn (YaRN: frequencies interpolated for a context rope_factor times "
        "rope_original_max, cos/sin scaled by the attention factor)."}},
      {"/model/rope_factor", {"YaRN factor", "yarn only: the context extension factor (>= 1)."}},
      {"/model/rope_original_max",
       {"YaRN original length", "yarn only: the context the model was pretrained with.", 1,
        limits::kMaxSeqLen}},
      {"/model/rope_beta_fast",
       {"YaRN β fast", "yarn only: rotations where the ramp from extrapolation starts."}},
      {"/model/rope_beta_slow",
       {"YaRN β slow", "yarn only: rotations where the ramp to interpolation ends."}},
      {"/model/rope_truncate",
       {"YaRN truncate", "yarn only: round the ramp's ends to whole dimensions."}},
      {"/model/rope_mscale",
       {"YaRN mscale",
        "yarn only: DeepSeek's mscale in the attention factor; 0: the factor alone."}},
      {"/model/rope_mscale_all_dim",
       {"YaRN mscale (all dims)",
        "yarn only: DeepSeek's mscale_all_dim; with mla also scales the softmax."}},
      {"/moe/experts",
       {"Experts", "Global number of experts E in each MoE layer.", 1, limits::kMaxExperts}},
      {"/moe/top_k",
       {"Top-k", "Experts each token is routed to (at most moe.experts).", 1, limits::kMaxExperts}},
      {"/moe/hidden",
       {"Expert hidden size",
        "Hidden width H of each expert FFN (M -> H -> M); also the dense "
        "FFN width of non-MoE blocks.",
        1, limits::kMaxHidden}},
      {"/moe/activation", {"Activation", "Expert activation: gelu (exact), relu or silu."}},
      {"/moe/gate",
       {"Gate",
        "top: linear gate x·Wg; cosine: projected cosine similarity with a learned "
        "temperature."}},
      {"/moe/capacity_factor",
       {"Capacity factor",
        "f > 0: C = k·floor(f·ceil(N/E)) slots per expert; 0: dropless (C = "
        "max demand); f < 0: dropless up to k·floor(-f·ceil(N/E))."}},
      {"/moe/gate_noise", {"Gate noise", "Training only: adds s·randn/E to the gate logits."}},
      {"/moe/fp32_gate", {"Float32 gate", "Compute the gate and routing in float32."}},
      {"/moe/normalize_gate",
       {"Normalize gate", "With top-k > 1, rescale a token's k gate values to sum to 1."}},
      {"/moe/batch_prioritized_routing",
       {"Batch-prioritized routing",
        "Fill expert slots in order of descending top-1 score, so "
        "confident tokens are dropped last."}},
      {"/moe/postscore",
       {"Post-score",
        "Weight expert outputs by the gate value when combining (else when "
        "dispatching)."}},
      {"/moe/fc1_bias", {"FC1 bias", "Experts' first layer has a bias [E, H]."}},
      {"/moe/fc2_bias", {"FC2 bias", "Experts' second layer has a bias [E, M]."}},
      {"/moe/aux_loss",
       {"Auxiliary loss",
        "gshard: E·Σ P·f; load_importance: needs gate noise; none; hf_load_balancing: "
        "transformers' loss, E·Σ F·P with F every choice's share, both over all MoE layers at "
        "once."}},
      {"/moe/cosine_proj_dim",
       {"Cosine projection", "Cosine gate only: projection width D.", 1, limits::kMaxDim}},
      {"/moe/cosine_init_t",
       {"Cosine initial T",
        "Cosine gate only: initial temperature; the logit scale starts at "
        "1/T."}},
      {"/moe/every",
       {"MoE every", "Every n-th block is an MoE block (block 0 always); others use a dense FFN.",
        1, limits::kMaxLayers}},
      {"/moe/bias_balancing/enabled",
       {"Enabled",
        "Aux-loss-free balancing: a per-expert bias on the selection scores, nudged "
        "towards equal load after each step."}},
      {"/moe/bias_balancing/rate", {"Rate", "Bias update per step: b += rate·sign(mean d - d)."}},
      {"/moe/router",
       {"Router",
        "softmax_top_k: Tutel's, softmax over all experts then the k best (normalize_gate "
        "rescales them when k > 1); top_k_softmax: the k best logits, gate values their "
        "softmax (Mixtral; Qwen and OLMoE with norm_topk_prob); group_limited_top_k: "
        "DeepSeek's, the k best inside the best groups of experts."}},
      {"/moe/expert_ffn",
       {"Expert FFN",
        "mlp: fc2(act(fc1 x)), Tutel's; glu: down(act(gate x) · up x), SwiGLU with silu."}},
      {"/moe/shared_hidden",
       {"Shared expert width",
        "decoder only: a gated MLP this wide that every token goes through beside the routed "
        "experts; 0: none.",
        0, limits::kMaxHidden}},
      {"/moe/shared_gate",
       {"Gate shared expert", "Scale the shared expert by sigmoid(x · w) per token (Qwen2-MoE)."}},
      {"/moe/score_function",
       {"Score function",
        "group_limited_top_k only: the experts' scores, softmax over the experts (DeepSeek-V2) "
        "or each expert's sigmoid (DeepSeek-V3)."}},
      {"/moe/expert_groups",
       {"Expert groups",
        "group_limited_top_k only: the experts split into this many equal groups (divides "
        "moe.experts).",
        1, limits::kMaxExperts}},
      {"/moe/topk_groups",
       {"Groups per token",
        "group_limited_top_k only: a token chooses its k experts inside its best this many "
        "groups.",
        1, limits::kMaxExperts}},
      {"/moe/group_score",
       {"Group score",
        "group_limited_top_k only: a group's score, its best expert's (max, DeepSeek-V2) or the "
        "sum of its best two (top2_sum, DeepSeek-V3)."}},
      {"/moe/gate_bias", {"Gate bias", "The gate's linear map has a bias (GPT-OSS's router)."}},
      {"/moe/swiglu_limit",
       {"SwiGLU clamp",
        "glu experts with silu: GPT-OSS's clamped SwiGLU, down(g·σ(α g)·(u + 1)) with g = "
        "min(gate, limit), u = clamp(up, ±limit); 0: plain SwiGLU."}},
      {"/moe/swiglu_alpha", {"SwiGLU α", "swiglu_limit > 0 only: the α in g·σ(α g)."}},
      {"/moe/routed_scaling",
       {"Routed scaling",
        "group_limited_top_k only: the factor on the routed experts' gate values "
        "(routed_scaling_factor)."}},
      {"/parallel/nodes",
       {"Nodes",
        "Machines the run spans; it has nodes × nproc ranks. More than 1 needs a cluster "
        "target: a local run uses this machine only.",
        1, limits::kMaxProcs}},
      {"/parallel/nproc",
       {"Processes per node",
        "Processes (ranks) started on each node. Experts are split over all ranks, "
        "and each takes an equal slice of the batch.",
        1, limits::kMaxProcs}},
      {"/parallel/backend",
       {"Backend", "Process group for the collectives: gloo (CPU), nccl (CUDA) or auto."}},
      {"/parallel/expert_parallel",
       {"Expert parallel",
        "Split the experts over the ranks (all-to-all dispatch); off: every rank holds every "
        "expert (data parallel)."}},
      {"/parallel/adaptive_r",
       {"Adaptive r",
        "Tutel's adaptive parallelism degree: 0 replicates the experts (no all-to-all); "
        "r > 0 divides the shards of each expert; auto lets the engine choose. The list "
        "offers the values the layout admits."}},
      {"/parallel/a2a_overlap_degree",
       {"All-to-all overlap",
        "Chunks the all-to-all is split into to overlap it with the "
        "experts' compute.",
        1, limits::kMaxProcs}},
      {"/parallel/timeout_s",
       {"Collective time-out (s)",
        "Seconds a collective waits for the other ranks: a dead or stalled rank then "
        "stops the run instead of hanging it."}},
      {"/train/steps", {"Steps", "Optimizer steps.", 1}},
      {"/train/batch_size",
       {"Batch size", "Global samples per forward/backward pass, summed over ranks.", 1,
        limits::kMaxBatchSize}},
      {"/train/grad_accum",
       {"Gradient accumulation", "Forward/backward passes per optimizer step.", 1}},
      {"/train/optimizer", {"Optimizer", "adamw (decoupled weight decay) or sgd."}},
      {"/train/lr", {"Learning rate", "Peak learning rate."}},
      {"/train/weight_decay", {"Weight decay", "In [0, 1). AdamW applies it to matrices only."}},
      {"/train/momentum", {"Momentum", "SGD momentum in [0, 1)."}},
      {"/train/schedule", {"LR schedule", "After warm-up: constant, cosine or linear decay."}},
      {"/train/warmup_steps", {"Warm-up steps", "Linear learning-rate warm-up from 0.", 0}},
      {"/train/dtype",
       {"Data type", "Weights and activations. bfloat16 keeps float32 master weights."}},
      {"/train/amp", {"Autocast (AMP)", "float32 models only: bfloat16 autocast."}},
      {"/train/clip_grad_norm", {"Clip grad norm", "Global gradient norm limit; 0 = off."}},
      {"/train/aux_loss_weight", {"Aux loss weight", "Weight of the MoE auxiliary loss."}},
      {"/train/z_loss_weight", {"Z-loss weight", "Weight of the router z-loss."}},
      {"/train/eval_every", {"Evaluate every", "Steps between evaluations; 0 = never.", 0}},
      {"/train/eval_batches", {"Eval batches", "Batches per evaluation.", 1}},
      {"/train/checkpoint_every", {"Checkpoint every", "Steps between checkpoints; 0 = never.", 0}},
      {"/train/keep_checkpoints", {"Keep checkpoints", "Newest checkpoints kept on disk.", 1}},
      {"/train/device", {"Device", "auto (CUDA when present), cpu or cuda."}},
      {"/train/threads",
       {"Threads", "CPU threads for LibTorch and the MoE kernels; 0 = every core.", 0,
        limits::kMaxThreads}},
      {"/data/kind",
       {"Kind",
        "synthetic (generated), text (plain text files), jsonl (JSON Lines documents), "
        "megatron (Megatron-LM's PREFIX.bin / PREFIX.idx token files), idx (MNIST / "
        "Fashion-MNIST images) or cifar10 (binary batches)."}},
      {"/data/path",
       {"Path",
        "File or folder with the data set (not used by synthetic). A text folder stands "
        "for all files below it."}},
      {"/data/val_fraction",
       {"Validation fraction",
        "Share held out for evaluation when the data set has no test "
        "split; in [0, 1)."}},
      {"/data/tokenizer",
       {"Tokenizer",
        "text and jsonl: a tokenizer.json, or a folder holding one, that encodes each document "
        "once into a token cache; empty: bytes, or the run's own tokenizer after --init-from a "
        "Hugging Face folder."}},
      {"/data/text_field", {"Text field", "jsonl: the field of each line that holds the text."}},
      {"/data/eos_token",
       {"EOS token",
        "Id put after each document; -1: the tokenizer's (tokenizer_config.json eos_token, "
        "else config.json eos_token_id).",
        -1}},
      {"/data/cache_dir",
       {"Token cache folder",
        "Where token caches are written; empty: beside the data (PATH.moe-tokens/)."}},
      {"/telemetry/every", {"Log every", "Steps between step / expert-load / phase events.", 1}},
      {"/telemetry/expert_load", {"Expert load", "Emit per-layer routing metrics."}},
      {"/telemetry/phases", {"Phase times", "Emit gate/dispatch/experts/... timings."}},
      {"/telemetry/trace", {"Chrome trace", "Write trace.json (Chrome trace event format)."}},
      {"/telemetry/capture_every",
       {"Capture every", "Steps between captures of each MoE layer's input and weights (0: off).",
        0}},
      {"/telemetry/capture_max_mb",
       {"Capture limit", "Stop capturing once captures/ would pass this many MiB.", 1}},
      {"/telemetry/tensorboard",
       {"TensorBoard", "Also write TensorBoard event files under tensorboard/."}},
  };
  return table;
}

// "cosine_proj_dim" -> "Cosine proj dim": a readable label for keys not described yet.
std::string humanize(const std::string& key) {
  std::string out = key;
  std::replace(out.begin(), out.end(), '_', ' ');
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

template <class T>
FieldType typeOf() {
  if constexpr (std::is_same_v<T, bool>) return FieldType::kBoolean;
  if constexpr (std::is_same_v<T, double>) return FieldType::kNumber;
  if constexpr (std::is_integral_v<T>) return FieldType::kInteger;
  return FieldType::kString;
}

// Visits a RunConfig and records each key with the path of sections it sits in.
class CatalogVisitor {
 public:
  explicit CatalogVisitor(std::vector<ConfigField>& out) : out_(out) {}

  template <class T>
  void field(const char* key, const T&) {
    ConfigField f;
    f.key = key;
    f.section = path_.empty() ? "" : path_[0];
    f.subsection = path_.size() > 1 ? path_[1] : "";
    for (const std::string& p : path_) f.pointer += "/" + p;
    f.pointer += "/" + f.key;
    f.type = typeOf<T>();
    describe(f);
    out_.push_back(std::move(f));
  }

  // A choice key: a string in JSON, one of the enum's names (a combo box in the form).
  template <class E>
  void choice(const char* key, const E&) {
    field(key, std::string());
    const auto& names = protocol::ConfigEnum<E>::names;
    out_.back().choices.assign(names.begin(), names.end());
  }

  // An integer that JSON may also write as "auto": an editable list in the form.
  void int_or_auto(const char* key, const int64_t& value, int64_t) {
    field(key, value);
    out_.back().takes_auto = true;
  }

  template <class F>
  void section(const char* key, F&& body) {
    path_.emplace_back(key);
    body();
    path_.pop_back();
  }

 private:
  static void describe(ConfigField& f) {
    auto it = descriptions().find(f.pointer);
    if (it != descriptions().end()) {
      f.label = it->second.label;
      f.help = it->second.help;
      f.min = it->second.min;
      f.max = it->second.max;
    } else {
      f.label = humanize(f.key);
      f.min = kIntMin;
      f.max = kIntMax;
    }
    f.read_only = f.pointer == "/schema";
    f.is_path = f.pointer == "/data/path" || f.pointer == "/data/tokenizer" ||
                f.pointer == "/data/cache_dir";
    // The tooltip always names the key as it is written in JSON and in --set.
    f.help = dottedKey(f.pointer) + (f.help.empty() ? "" : "\n" + f.help);
  }

  std::vector<ConfigField>& out_;
  std::vector<std::string> path_;
};

}  // namespace

const std::vector<ConfigField>& configFields() {
  static const std::vector<ConfigField> fields = [] {
    std::vector<ConfigField> out;
    const protocol::RunConfig defaults;
    CatalogVisitor visitor(out);
    protocol::detail::visit_config(defaults, visitor);
    return out;
  }();
  return fields;
}

const ConfigField* findConfigField(const std::string& pointer) {
  for (const ConfigField& f : configFields()) {
    if (f.pointer == pointer) return &f;
  }
  return nullptr;
}

std::string sectionTitle(const std::string& section) {
  static const std::unordered_map<std::string, std::string> titles = {
      {"", "Experiment"},
      {"model", "Model"},
      {"moe", "MoE"},
      {"parallel", "Parallelism"},
      {"train", "Training"},
      {"data", "Data"},
      {"telemetry", "Telemetry"},
      {"bias_balancing", "Bias balancing"},
  };
  auto it = titles.find(section);
  return it != titles.end() ? it->second : humanize(section);
}

std::string dottedKey(const std::string& pointer) {
  std::string out = pointer.empty() || pointer[0] != '/' ? pointer : pointer.substr(1);
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

}  // namespace moe::ui
