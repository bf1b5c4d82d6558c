#include "protocol/safetensors_header.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

namespace moe::protocol {
namespace {

using json = nlohmann::json;

struct Dtype {
  const char* name;
  std::uint64_t size;
};

constexpr Dtype kDtypes[] = {
    {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8},
    {"I32", 4}, {"I16", 2}, {"I8", 1},  {"U8", 1},   {"BOOL", 1},
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SafetensorsError("safetensors file '" + path + "': " + what);
}

[[noreturn]] void fail_tensor(const std::string& path, const std::string& name,
                              const std::string& what) {
  fail(path, "tensor '" + name + "': " + what);
}

bool as_u64(const json& v, std::uint64_t* out) {
  if (v.is_number_unsigned()) {
    *out = v.get<std::uint64_t>();
    return true;
  }
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) {
    *out = static_cast<std::uint64_t>(v.get<std::int64_t>());
    return true;
  }
  return false;
}

// Parses the header text, rejecting duplicate keys (nlohmann would silently keep the last one)
// and nesting deeper than a safetensors header has (which also bounds recursion).
json parse_header(const std::string& path, const std::string& text) {
  struct Level {
    bool is_object;
    std::set<std::string> keys;
  };
  std::vector<Level> stack;
  std::string tensor;                   // the current top-level key, for messages
  constexpr std::size_t kMaxDepth = 3;  // header object > entry object > shape / offsets array

  auto callback = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (stack.size() >= kMaxDepth) {
          if (!stack.front().is_object) fail(path, "header JSON is not an object");
          if (tensor == kSafetensorsMetadataKey) fail(path, "__metadata__: values must be strings");
          fail_tensor(path, tensor, "unexpected nested JSON value");
        }
        stack.push_back({event == json::parse_event_t::object_start, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (stack.size() == 1) tensor = key;
        if (!stack.back().keys.insert(key).second) {
          if (stack.size() == 1)
            fail(path, key == kSafetensorsMetadataKey ? "duplicate \"__metadata__\" in header"
                                                      : "duplicate tensor name '" + key + "'");
          if (tensor == kSafetensorsMetadataKey)
            fail(path, "__metadata__: duplicate key '" + key + "'");
          fail_tensor(path, tensor, "duplicate field '" + key + "'");
        }
        break;
      }
      case json::parse_event_t::value:
        break;
    }
    return true;
  };

  // nlohmann treats a NUL byte as the end of input, which would let arbitrary bytes follow.
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    fail(path, "header is not valid JSON: NUL byte at offset " + std::to_string(nul));
  json header;
  try {
    header = json::parse(text, callback);
  } catch (const json::exception& e) {
    fail(path, std::string("header is not valid JSON: ") + e.what());
  }
  if (!header.is_object()) fail(path, "header JSON is not an object");
  return header;
}

void read_metadata(const std::string& path, const json& value,
                   std::map<std::string, std::string>* out) {
  if (value.is_null()) return;  // the reference implementation accepts a null __metadata__
  if (!value.is_object()) fail(path, "__metadata__ is not an object of strings");
  for (const auto& [key, v] : value.items()) {
    if (!v.is_string()) fail(path, "__metadata__: value of '" + key + "' is not a string");
    if (out) (*out)[key] = v.get<std::string>();
  }
}

SafetensorsEntry read_entry(const std::string& path, const std::string& name, const json& value,
                            std::uint64_t buffer_size) {
  SafetensorsEntry e;
  if (!value.is_object()) fail_tensor(path, name, "entry is not an object");
  for (const auto& [key, v] : value.items()) {
    (void)v;
    if (key != "dtype" && key != "shape" && key != "data_offsets")
      fail_tensor(path, name, "unexpected field '" + key + "'");
  }
  for (const char* key : {"dtype", "shape", "data_offsets"})
    if (!value.contains(key)) fail_tensor(path, name, std::string("missing field '") + key + "'");

  const json& dtype = value["dtype"];
  if (!dtype.is_string()) fail_tensor(path, name, "dtype is not a string");
  e.dtype = dtype.get<std::string>();
  const std::optional<std::uint64_t> element_size = safetensors_dtype_size(e.dtype);
  if (!element_size)
    fail_tensor(path, name,
                "unknown dtype '" + e.dtype + "' (supported: " + safetensors_dtype_list() + ")");

  const json& shape = value["shape"];
  if (!shape.is_array()) fail_tensor(path, name, "shape is not a list");
  std::uint64_t numel = 1;
  for (const json& dim : shape) {
    std::uint64_t d = 0;
    if (!as_u64(dim, &d))
      fail_tensor(path, name, "shape " + shape.dump() + " is not a list of non-negative integers");
    if (d > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
        __builtin_mul_overflow(numel, d, &numel) ||
        numel > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail_tensor(path, name, "shape " + shape.dump() + " has too many elements");
    e.shape.push_back(static_cast<std::int64_t>(d));
  }
  std::uint64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, *element_size, &nbytes))
    fail_tensor(path, name, "shape " + shape.dump() + " has too many bytes");

  const json& offsets = value["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2 || !as_u64(offsets[0], &e.begin) ||
      !as_u64(offsets[1], &e.end))
    fail_tensor(
        path, name,
        "data_offsets " + offsets.dump() + " is not [begin, end] with non-negative integers");
  if (e.begin > e.end)
    fail_tensor(path, name, "data_offsets " + offsets.dump() + " has begin > end");
  if (e.end - e.begin != nbytes)
    fail_tensor(path, name,
                "data_offsets " + offsets.dump() + " span " + std::to_string(e.end - e.begin) +
                    " bytes but dtype " + e.dtype + " and shape " + shape.dump() + " need " +
                    std::to_string(nbytes));
  if (e.end > buffer_size)
    fail_tensor(path, name,
                "data_offsets " + offsets.dump() + " go beyond the data buffer of " +
                    std::to_string(buffer_size) + " bytes");
  return e;
}

// The tensors must tile the data buffer exactly: no overlaps, no gaps, no trailing bytes.
void check_coverage(const std::string& path, const SafetensorsHeader& header) {
  struct Span {
    std::uint64_t begin, end;
    const std::string* name;
  };
  std::vector<Span> entries;
  for (const auto& [name, e] : header.tensors) entries.push_back({e.begin, e.end, &name});
  std::sort(entries.begin(), entries.end(), [](const Span& a, const Span& b) {
    return std::tie(a.begin, a.end, *a.name) < std::tie(b.begin, b.end, *b.name);
  });
  std::uint64_t expected = 0;
  const Span* previous = nullptr;
  for (const Span& e : entries) {
    if (e.begin < expected)
      fail_tensor(path, *e.name,
                  "data [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                      ") overlaps tensor '" + *previous->name + "'");
    if (e.begin > expected)
      fail_tensor(path, *e.name,
                  "data starts at " + std::to_string(e.begin) + ", leaving a gap of " +
                      std::to_string(e.begin - expected) + " unused bytes before it");
    expected = e.end;
    previous = &e;
  }
  if (expected != header.data_size)
    fail(path, "data buffer has " + std::to_string(header.data_size - expected) +
                   " bytes not covered by any tensor");
}

}  // namespace

std::optional<uint64_t> safetensors_dtype_size(const std::string& dtype) {
  for (const Dtype& d : kDtypes)
    if (dtype == d.name) return d.size;
  return std::nullopt;
}

std::string safetensors_dtype_list() {
  std::string out;
  for (const Dtype& d : kDtypes) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

const SafetensorsEntry* SafetensorsHeader::find(const std::string& name) const {
  const auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}

std::vector<std::string> SafetensorsHeader::names_in_file_order() const {
  std::vector<std::string> names;
  for (const auto& item : tensors) names.push_back(item.first);
  std::stable_sort(names.begin(), names.end(), [this](const std::string& a, const std::string& b) {
    return tensors.at(a).begin < tensors.at(b).begin;
  });
  return names;
}

SafetensorsHeader parse_safetensors_header(const std::string& path, const std::string& text,
                                           uint64_t data_size) {
  const json parsed = parse_header(path, text);
  SafetensorsHeader header;
  header.data_size = data_size;
  for (const auto& [name, value] : parsed.items()) {
    if (name == kSafetensorsMetadataKey)
      read_metadata(path, value, &header.metadata);
    else
      header.tensors.emplace(name, read_entry(path, name, value, data_size));
  }
  check_coverage(path, header);
  return header;
}

SafetensorsHeader read_safetensors_header(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    fail(path, "not a regular file");

  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff end_pos = in.tellg();
  if (end_pos < 0) fail(path, "cannot determine the file size");
  const auto file_size = static_cast<std::uint64_t>(end_pos);
  in.seekg(0, std::ios::beg);
  if (file_size < 8)
    fail(path,
         "file is " + std::to_string(file_size) + " bytes, shorter than the 8-byte header length");

  unsigned char length_bytes[8];
  if (!in.read(reinterpret_cast<char*>(length_bytes), 8)) fail(path, "cannot read header length");
  std::uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = (header_size << 8) | length_bytes[i];
  if (header_size > kMaxSafetensorsHeaderBytes)
    fail(path, "header length " + std::to_string(header_size) + " exceeds the limit of " +
                   std::to_string(kMaxSafetensorsHeaderBytes) + " bytes");
  if (header_size > file_size - 8)
    fail(path, "header length " + std::to_string(header_size) +
                   " is larger than the rest of the file (" + std::to_string(file_size - 8) +
                   " bytes)");

  std::string text(header_size, '\0');
  if (header_size != 0 && !in.read(text.data(), static_cast<std::streamsize>(header_size)))
    fail(path, "cannot read the header");
  SafetensorsHeader header = parse_safetensors_header(path, text, file_size - 8 - header_size);
  header.data_offset = 8 + header_size;
  return header;
}

}  // namespace moe::protocol
