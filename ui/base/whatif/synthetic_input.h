// Tokens for a file that has a layer's weights but no `input` (a model's checkpoint, Tutel's
// included): the What-if view routes N tokens drawn from a standard normal instead, written with a
// copy of the layer's tensors to a file of its own, since `moe-train replay` reads one file.
#pragma once

#include <QString>

#include <cstdint>
#include <string>

#include "base/whatif/safetensors_header.h"

namespace moe::ui {

inline constexpr int64_t kSyntheticTokens = 4096;
inline constexpr uint64_t kSyntheticSeed = 1;

// Writes `to`: the layer's tensors of `from` (whose header is `header`; <prefix>gates.* and
// <prefix>experts.*), unchanged, and `input`, float32 [tokens, dim], standard normal from `seed`.
// False with *error.
bool writeWithSyntheticInput(const QString& from, const SafetensorsHeader& header,
                             const std::string& prefix, int64_t tokens, int64_t dim, uint64_t seed,
                             const QString& to, QString* error);

}  // namespace moe::ui
