#include "safetensors_view.h"

#include <cstring>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "process.h"

namespace moe::test {

std::map<std::string, TensorView> read_tensor_views(const std::string& path) {
  const std::string file = read_file(path);
  const auto bad = [&](const std::string& why) { return std::runtime_error(path + ": " + why); };
  if (file.size() < 8) throw bad("shorter than 8 bytes");
  uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = header_size << 8 | static_cast<uint8_t>(file[i]);
  if (header_size > file.size() - 8) throw bad("header longer than the file");
  const auto header = nlohmann::json::parse(file.substr(8, header_size), nullptr, false);
  if (!header.is_object()) throw bad("header is not a JSON object");
  const size_t data = 8 + header_size;
  std::map<std::string, TensorView> out;
  for (const auto& item : header.items()) {
    if (item.key() == "__metadata__") continue;
    const auto& h = item.value();
    TensorView t;
    t.dtype = h.at("dtype").get<std::string>();
    t.shape = h.at("shape").get<std::vector<int64_t>>();
    const auto offsets = h.at("data_offsets").get<std::vector<uint64_t>>();
    if (offsets.size() != 2 || offsets[0] > offsets[1] || data + offsets[1] > file.size()) {
      throw bad("bad data_offsets of " + item.key());
    }
    t.bytes = file.substr(data + offsets[0], offsets[1] - offsets[0]);
    out[item.key()] = std::move(t);
  }
  return out;
}

void write_tensor_views(const std::string& path, const std::map<std::string, TensorView>& tensors) {
  nlohmann::json header = nlohmann::json::object();
  std::string data;
  for (const auto& [name, t] : tensors) {
    header[name] = {{"dtype", t.dtype},
                    {"shape", t.shape},
                    {"data_offsets", {data.size(), data.size() + t.bytes.size()}}};
    data += t.bytes;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string size(8, '\0');
  for (int i = 0; i < 8; ++i) size[i] = static_cast<char>(text.size() >> (8 * i));
  std::ofstream out(path, std::ios::binary);
  out << size << text << data;
  if (!out.flush()) throw std::runtime_error(path + ": could not be written");
}

std::vector<int64_t> int64_values(const TensorView& t) {
  if (t.dtype != "I64") throw std::runtime_error("expected I64, got " + t.dtype);
  std::vector<int64_t> v(t.bytes.size() / 8);
  std::memcpy(v.data(), t.bytes.data(), v.size() * 8);
  return v;
}

std::vector<double> double_values(const TensorView& t) {
  std::vector<double> v;
  if (t.dtype == "F64") {
    v.resize(t.bytes.size() / 8);
    std::memcpy(v.data(), t.bytes.data(), v.size() * 8);
  } else if (t.dtype == "F32") {
    std::vector<float> f(t.bytes.size() / 4);
    std::memcpy(f.data(), t.bytes.data(), f.size() * 4);
    v.assign(f.begin(), f.end());
  } else if (t.dtype == "BF16") {
    for (size_t i = 0; i + 1 < t.bytes.size(); i += 2) {
      const uint32_t bits = (static_cast<uint32_t>(static_cast<uint8_t>(t.bytes[i + 1])) << 24) |
                            (static_cast<uint32_t>(static_cast<uint8_t>(t.bytes[i])) << 16);
      float f;
      std::memcpy(&f, &bits, 4);
      v.push_back(f);
    }
  } else {
    throw std::runtime_error("expected F32, F64 or BF16, got " + t.dtype);
  }
  return v;
}

}  // namespace moe::test
