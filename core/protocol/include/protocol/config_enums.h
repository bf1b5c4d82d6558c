// The typed values of RunConfig's choice keys (docs/PROTOCOL.md, "RunConfig"). RunConfig holds
// these enums, so code compares `c.moe.gate == Gate::Cosine`, never strings; JSON, --set and the
// GUI's combo boxes use each value's name from ConfigEnum<E>::names (declaration order).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace moe::protocol {

enum class ModelKind { HelloWorld, Lm, Image, Decoder };
// The Hugging Face architecture a decoder maps to (import-hf / export-hf; docs/MODELS.md).
enum class ModelFamily { Mixtral, Qwen2Moe, Qwen3Moe, Olmoe, DeepseekV2, DeepseekV3, GptOss };
enum class QkNorm { None, Head, Full };
// gqa: grouped-query attention; mla: DeepSeek's multi-head latent attention (low-rank q and kv).
enum class AttentionKind { Gqa, Mla };
// none: plain rotary embeddings; yarn: YaRN's frequency interpolation and attention factor.
enum class RopeScaling { None, Yarn };
enum class ExpertFfn { Mlp, Glu };
// softmax_top_k: Tutel's (softmax over E, top-k, normalize_gate when k > 1); top_k_softmax: the
// k best logits, their softmax as gate values (Mixtral, Qwen and OLMoE with norm_topk_prob).
// group_limited_top_k: DeepSeek's (scores by moe.score_function, the best moe.topk_groups of
// moe.expert_groups groups, top-k inside them, gate values scaled by moe.routed_scaling).
enum class RouterKind { SoftmaxTopK, TopKSoftmax, GroupLimitedTopK };
enum class ScoreFunction { Softmax, Sigmoid };
// A group's score: its best expert's (DeepSeek-V2) or the sum of its best two (DeepSeek-V3).
enum class GroupScore { Max, TopTwoSum };
enum class Activation { Gelu, Relu, Silu };
enum class Gate { Top, Cosine };
// hf_load_balancing: transformers' load_balancing_loss_func, over every MoE layer at once;
// seq_balance: DeepSeek's sequence-wise balance loss (each sequence's load times its mean score).
enum class AuxLoss { GShard, LoadImportance, None, HfLoadBalancing, SeqBalance };
enum class Backend { Auto, Gloo, Nccl };
enum class Optimizer { AdamW, Sgd };
enum class Schedule { Constant, Cosine, Linear };
enum class Dtype { Float32, Float64, BFloat16, Float16 };
enum class Device { Auto, Cpu, Cuda };
// idx is MNIST-style image files; jsonl is JSON Lines documents; megatron is Megatron-LM's indexed
// token files (PREFIX.bin / PREFIX.idx).
enum class DataKind { Synthetic, Text, Idx, Cifar10, Jsonl, Megatron };

// The JSON name of each value, indexed by the enum's underlying value (specialised below).
template <class E>
struct ConfigEnum;

// The value named `name`, or nullopt when no value has that name.
template <class E>
constexpr std::optional<E> enum_from_name(std::string_view name) {
  const auto& names = ConfigEnum<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

namespace detail {
template <class... Names>
constexpr std::array<std::string_view, sizeof...(Names)> enum_names(Names... names) {
  return {names...};
}
}  // namespace detail

// Also gives nlohmann::json the names (to_json / from_json, found by ADL), so a value never turns
// into a JSON integer.
#define MOE_CONFIG_ENUM_NAMES(E, ...)                                       \
  template <>                                                               \
  struct ConfigEnum<E> {                                                    \
    static constexpr auto names = detail::enum_names(__VA_ARGS__);          \
  };                                                                        \
  template <class Json>                                                     \
  void to_json(Json& j, const E& value) {                                   \
    j = std::string(ConfigEnum<E>::names[static_cast<std::size_t>(value)]); \
  }                                                                         \
  template <class Json>                                                     \
  void from_json(const Json& j, E& value) {                                 \
    const std::string name = j.template get<std::string>();                 \
    const std::optional<E> v = enum_from_name<E>(name);                     \
    if (!v) throw std::invalid_argument("unknown " #E " \"" + name + "\""); \
    value = *v;                                                             \
  }

MOE_CONFIG_ENUM_NAMES(ModelKind, "helloworld", "lm", "image", "decoder");
MOE_CONFIG_ENUM_NAMES(ModelFamily, "mixtral", "qwen2_moe", "qwen3_moe", "olmoe", "deepseek_v2",
                      "deepseek_v3", "gpt_oss");
MOE_CONFIG_ENUM_NAMES(QkNorm, "none", "head", "full");
MOE_CONFIG_ENUM_NAMES(AttentionKind, "gqa", "mla");
MOE_CONFIG_ENUM_NAMES(RopeScaling, "none", "yarn");
MOE_CONFIG_ENUM_NAMES(ExpertFfn, "mlp", "glu");
MOE_CONFIG_ENUM_NAMES(RouterKind, "softmax_top_k", "top_k_softmax", "group_limited_top_k");
MOE_CONFIG_ENUM_NAMES(ScoreFunction, "softmax", "sigmoid");
MOE_CONFIG_ENUM_NAMES(GroupScore, "max", "top2_sum");
MOE_CONFIG_ENUM_NAMES(Activation, "gelu", "relu", "silu");
MOE_CONFIG_ENUM_NAMES(Gate, "top", "cosine");
MOE_CONFIG_ENUM_NAMES(AuxLoss, "gshard", "load_importance", "none", "hf_load_balancing",
                      "seq_balance");
MOE_CONFIG_ENUM_NAMES(Backend, "auto", "gloo", "nccl");
MOE_CONFIG_ENUM_NAMES(Optimizer, "adamw", "sgd");
MOE_CONFIG_ENUM_NAMES(Schedule, "constant", "cosine", "linear");
MOE_CONFIG_ENUM_NAMES(Dtype, "float32", "float64", "bfloat16", "float16");
MOE_CONFIG_ENUM_NAMES(Device, "auto", "cpu", "cuda");
MOE_CONFIG_ENUM_NAMES(DataKind, "synthetic", "text", "idx", "cifar10", "jsonl", "megatron");
#undef MOE_CONFIG_ENUM_NAMES

template <class E, class = void>
struct is_config_enum : std::false_type {};
template <class E>
struct is_config_enum<E, std::void_t<decltype(ConfigEnum<E>::names)>> : std::true_type {};
template <class E>
inline constexpr bool is_config_enum_v = is_config_enum<E>::value;

template <class E, class = std::enable_if_t<is_config_enum_v<E>>>
constexpr std::string_view enum_name(E value) {
  return ConfigEnum<E>::names[static_cast<std::size_t>(value)];
}

// For messages: "model " + to_string(c.model.kind).
template <class E, class = std::enable_if_t<is_config_enum_v<E>>>
std::string to_string(E value) {
  return std::string(enum_name(value));
}

}  // namespace moe::protocol
