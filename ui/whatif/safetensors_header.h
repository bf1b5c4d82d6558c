// The table of contents of a safetensors file (an 8-byte little-endian header length, a JSON
// header naming each tensor's dtype, shape and byte range, then the data; docs/PROTOCOL.md,
// "moe-train replay"), read without the data and without Torch: the What-if view needs only the
// names and shapes to find a layer's parameters and size its config.
#pragma once

#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace moe::ui {

struct TensorEntry {
  std::string dtype;            // "F32", "BF16", "I64", ...
  std::vector<int64_t> shape;   // empty: a scalar
  uint64_t begin = 0, end = 0;  // byte range within the data that follows the header
};

struct SafetensorsHeader {
  std::map<std::string, TensorEntry> tensors;  // by name
  uint64_t data_offset = 0;                    // where the data starts in the file

  const TensorEntry* find(const std::string& name) const;
};

// The header of the file at `path`, checked: its length fits the file, it is a JSON object, each
// tensor has a dtype, a shape of sizes >= 0 and a byte range inside the file. nullopt with *error
// naming the file and what is wrong.
std::optional<SafetensorsHeader> readSafetensorsHeader(const QString& path, QString* error);

// "[4096, 512]"
QString shapeText(const std::vector<int64_t>& shape);

}  // namespace moe::ui
