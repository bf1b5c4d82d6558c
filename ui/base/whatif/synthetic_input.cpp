#include "base/whatif/synthetic_input.h"

#include <QFile>

#include <cstring>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/storage/whole_file.h"

namespace moe::ui {

bool writeWithSyntheticInput(const QString& from, const SafetensorsHeader& header,
                             const std::string& prefix, int64_t tokens, int64_t dim, uint64_t seed,
                             const QString& to, QString* error) {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  QFile in(from);
  if (!in.open(QIODevice::ReadOnly)) return fail(from + ": " + in.errorString());
  // The layer's tensors, then input, back to back after the header.
  nlohmann::json json = nlohmann::json::object();
  uint64_t offset = 0;
  std::vector<const std::pair<const std::string, TensorEntry>*> copied;
  for (const auto& item : header.tensors) {
    // The layer's parameters: <prefix>gates.* and <prefix>experts.* (docs/ROUTING.md).
    const bool of_layer = item.first.compare(0, prefix.size(), prefix) == 0 &&
                          (item.first.compare(prefix.size(), 6, "gates.") == 0 ||
                           item.first.compare(prefix.size(), 8, "experts.") == 0);
    if (!of_layer) continue;
    const uint64_t size = item.second.end - item.second.begin;
    json[item.first] = {{"dtype", item.second.dtype},
                        {"shape", item.second.shape},
                        {"data_offsets", {offset, offset + size}}};
    offset += size;
    copied.push_back(&item);
  }
  const uint64_t input_bytes = static_cast<uint64_t>(tokens * dim) * sizeof(float);
  json["input"] = {
      {"dtype", "F32"}, {"shape", {tokens, dim}}, {"data_offsets", {offset, offset + input_bytes}}};
  std::string text = json.dump();
  text.append((8 - text.size() % 8) % 8, ' ');

  QSaveFile out(to);
  if (!out.open(QIODevice::WriteOnly)) return fail(to + ": " + out.errorString());
  char length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
  out.write(length, 8);
  out.write(text.data(), static_cast<qint64>(text.size()));
  for (const auto* item : copied) {
    in.seek(static_cast<qint64>(header.data_offset + item->second.begin));
    uint64_t left = item->second.end - item->second.begin;
    while (left > 0) {
      const QByteArray chunk = in.read(static_cast<qint64>(std::min<uint64_t>(left, 1 << 24)));
      if (chunk.isEmpty()) return fail(from + ": " + in.errorString());
      out.write(chunk);
      left -= static_cast<uint64_t>(chunk.size());
    }
  }
  std::mt19937_64 random(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> row(static_cast<size_t>(dim));
  for (int64_t n = 0; n < tokens; ++n) {
    for (float& v : row) v = normal(random);
    out.write(reinterpret_cast<const char*>(row.data()),
              static_cast<qint64>(row.size() * sizeof(float)));
  }
  QString why;
  if (!commitWhole(out, &why)) return fail(to + ": " + why);
  return true;
}

}  // namespace moe::ui
