// The table of contents of a safetensors file, read without the data and without Torch: the
// What-if view needs only the names and shapes to find a layer's parameters and size its config.
// The reader and its rules are the engine's (protocol/safetensors_header.h), so the view refuses
// exactly the files `moe-train replay` would.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/safetensors_header.h"

namespace moe::ui {

using TensorEntry = protocol::SafetensorsEntry;
using SafetensorsHeader = protocol::SafetensorsHeader;

// The checked header of the file at `path`; nullopt with *error naming the file and what is
// wrong.
std::optional<SafetensorsHeader> readSafetensorsHeader(const QString& path, QString* error);

// "[4096, 512]"
QString shapeText(const std::vector<int64_t>& shape);

}  // namespace moe::ui
