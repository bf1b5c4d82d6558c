// The allowed values of RunConfig's string-valued keys (docs/PROTOCOL.md, "RunConfig"). The GUI
// fills its combo boxes from these; validate() checks against them.
#pragma once

#include <array>
#include <string_view>

namespace moe::protocol {

inline constexpr std::array<std::string_view, 3> kModelKinds = {"helloworld", "lm", "image"};
inline constexpr std::array<std::string_view, 3> kActivations = {"gelu", "relu", "silu"};
inline constexpr std::array<std::string_view, 2> kGates = {"top", "cosine"};
inline constexpr std::array<std::string_view, 3> kAuxLosses = {"gshard", "load_importance", "none"};
inline constexpr std::array<std::string_view, 3> kBackends = {"auto", "gloo", "nccl"};
inline constexpr std::array<std::string_view, 2> kOptimizers = {"adamw", "sgd"};
inline constexpr std::array<std::string_view, 3> kSchedules = {"constant", "cosine", "linear"};
inline constexpr std::array<std::string_view, 4> kDtypes = {"float32", "float64", "bfloat16",
                                                            "float16"};
inline constexpr std::array<std::string_view, 3> kDevices = {"auto", "cpu", "cuda"};
inline constexpr std::array<std::string_view, 4> kDataKinds = {"synthetic", "text", "idx",
                                                               "cifar10"};

}  // namespace moe::protocol
