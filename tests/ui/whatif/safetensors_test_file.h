#pragma once
// Small safetensors files for the What-if tests: written from names, dtypes, shapes and bytes,
// re-written under other names (a model checkpoint's prefix), and a tensor's values read back as
// numbers (what `moe-train replay --out` wrote).
#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/whatif/safetensors_header.h"

namespace moe::test {

struct TestTensor {
  std::string dtype = "F32";
  std::vector<int64_t> shape;
  QByteArray bytes;  // empty: zeros of the right size
};

inline int64_t dtypeBytes(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64") return 8;
  if (dtype == "F32" || dtype == "I32") return 4;
  if (dtype == "BF16" || dtype == "F16" || dtype == "I16") return 2;
  return 1;
}

// Writes the tensors in name order, the header padded to a multiple of 8 as the format's own
// writer does.
inline bool writeSafetensors(const QString& path,
                             const std::map<std::string, TestTensor>& tensors) {
  nlohmann::json header = nlohmann::json::object();
  QByteArray data;
  for (const auto& [name, t] : tensors) {
    int64_t count = 1;
    for (int64_t s : t.shape) count *= s;
    const QByteArray bytes =
        t.bytes.isEmpty() ? QByteArray(count * dtypeBytes(t.dtype), '\0') : t.bytes;
    header[name] = {{"dtype", t.dtype},
                    {"shape", t.shape},
                    {"data_offsets", {data.size(), data.size() + bytes.size()}}};
    data += bytes;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  uint64_t length = text.size();
  char le[8];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<char>((length >> (8 * i)) & 0xff);
  file.write(le, 8);
  file.write(text.data(), static_cast<qint64>(text.size()));
  file.write(data);
  return true;
}

// Every tensor of `path` with its bytes.
inline std::map<std::string, TestTensor> readSafetensors(const QString& path) {
  std::map<std::string, TestTensor> out;
  QString error;
  const auto header = ui::readSafetensorsHeader(path, &error);
  if (!header) return out;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return out;
  for (const auto& [name, entry] : header->tensors) {
    file.seek(static_cast<qint64>(header->data_offset + entry.begin));
    out[name] = {entry.dtype, entry.shape, file.read(static_cast<qint64>(entry.end - entry.begin))};
  }
  return out;
}

// A tensor's values as doubles (F64, F32, BF16, I64, I32).
inline std::vector<double> values(const TestTensor& t) {
  std::vector<double> out;
  const char* p = t.bytes.constData();
  const int64_t size = dtypeBytes(t.dtype);
  for (qsizetype i = 0; i + size <= t.bytes.size(); i += size) {
    if (t.dtype == "F64") {
      double v;
      std::memcpy(&v, p + i, 8);
      out.push_back(v);
    } else if (t.dtype == "F32") {
      float v;
      std::memcpy(&v, p + i, 4);
      out.push_back(v);
    } else if (t.dtype == "BF16") {
      uint32_t bits = 0;
      std::memcpy(reinterpret_cast<char*>(&bits) + 2, p + i, 2);
      float v;
      std::memcpy(&v, &bits, 4);
      out.push_back(v);
    } else if (t.dtype == "I64") {
      int64_t v;
      std::memcpy(&v, p + i, 8);
      out.push_back(static_cast<double>(v));
    } else if (t.dtype == "I32") {
      int32_t v;
      std::memcpy(&v, p + i, 4);
      out.push_back(v);
    }
  }
  return out;
}

}  // namespace moe::test
