#include "io/safetensors.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// Tensor bytes are copied between the file and memory as they are: the format is little-endian.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "moe::io safetensors support assumes a little-endian host"
#endif

namespace moe::io {
namespace {

using json = nlohmann::json;

// The reference implementation refuses larger headers too (MAX_HEADER_SIZE).
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
constexpr const char* kMetadataKey = "__metadata__";

struct Dtype {
  const char* name;
  at::ScalarType type;
  std::uint64_t size;
};

constexpr Dtype kDtypes[] = {
    {"F64", at::kDouble, 8},    {"F32", at::kFloat, 4}, {"F16", at::kHalf, 2},
    {"BF16", at::kBFloat16, 2}, {"I64", at::kLong, 8},  {"I32", at::kInt, 4},
    {"I16", at::kShort, 2},     {"I8", at::kChar, 1},   {"U8", at::kByte, 1},
    {"BOOL", at::kBool, 1},
};

std::string supported_dtypes() {
  std::string out;
  for (const Dtype& d : kDtypes) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

const Dtype* dtype_by_name(const std::string& name) {
  for (const Dtype& d : kDtypes)
    if (name == d.name) return &d;
  return nullptr;
}

const Dtype* dtype_by_type(at::ScalarType type) {
  for (const Dtype& d : kDtypes)
    if (type == d.type) return &d;
  return nullptr;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SafetensorsError("safetensors file '" + path + "': " + what);
}

[[noreturn]] void fail_tensor(const std::string& path, const std::string& name,
                              const std::string& what) {
  fail(path, "tensor '" + name + "': " + what);
}

std::string os_error() {
  return std::strerror(errno);
}

// One tensor as described by the header, validated against itself and the buffer size.
struct Entry {
  std::string name;
  const Dtype* dtype = nullptr;
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

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
          if (tensor == kMetadataKey) fail(path, "__metadata__: values must be strings");
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
            fail(path, key == kMetadataKey ? "duplicate \"__metadata__\" in header"
                                           : "duplicate tensor name '" + key + "'");
          if (tensor == kMetadataKey) fail(path, "__metadata__: duplicate key '" + key + "'");
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

Entry read_entry(const std::string& path, const std::string& name, const json& value,
                 std::uint64_t buffer_size) {
  Entry e;
  e.name = name;
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
  e.dtype = dtype_by_name(dtype.get<std::string>());
  if (!e.dtype)
    fail_tensor(
        path, name,
        "unknown dtype '" + dtype.get<std::string>() + "' (supported: " + supported_dtypes() + ")");

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
  if (__builtin_mul_overflow(numel, e.dtype->size, &nbytes))
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
                    " bytes but dtype " + e.dtype->name + " and shape " + shape.dump() + " need " +
                    std::to_string(nbytes));
  if (e.end > buffer_size)
    fail_tensor(path, name,
                "data_offsets " + offsets.dump() + " go beyond the data buffer of " +
                    std::to_string(buffer_size) + " bytes");
  return e;
}

// The tensors must tile the data buffer exactly: no overlaps, no gaps, no trailing bytes.
void check_coverage(const std::string& path, std::vector<Entry>& entries,
                    std::uint64_t buffer_size) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  std::uint64_t expected = 0;
  const Entry* previous = nullptr;
  for (const Entry& e : entries) {
    if (e.begin < expected)
      fail_tensor(path, e.name,
                  "data [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                      ") overlaps tensor '" + previous->name + "'");
    if (e.begin > expected)
      fail_tensor(path, e.name,
                  "data starts at " + std::to_string(e.begin) + ", leaving a gap of " +
                      std::to_string(e.begin - expected) + " unused bytes before it");
    expected = e.end;
    previous = &e;
  }
  if (expected != buffer_size)
    fail(path, "data buffer has " + std::to_string(buffer_size - expected) +
                   " bytes not covered by any tensor");
}

void write_all(std::FILE* f, const void* data, std::size_t size, const std::string& path,
               const std::string& what) {
  if (size != 0 && std::fwrite(data, 1, size, f) != size)
    fail(path, "cannot write " + what + ": " + os_error());
}

}  // namespace

TensorMap read_safetensors(const std::string& path, std::map<std::string, std::string>* metadata) {
  if (metadata) metadata->clear();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    fail(path, "not a regular file");

  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open: " + os_error());
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
  if (header_size > kMaxHeaderBytes)
    fail(path, "header length " + std::to_string(header_size) + " exceeds the limit of " +
                   std::to_string(kMaxHeaderBytes) + " bytes");
  if (header_size > file_size - 8)
    fail(path, "header length " + std::to_string(header_size) +
                   " is larger than the rest of the file (" + std::to_string(file_size - 8) +
                   " bytes)");

  std::string text(header_size, '\0');
  if (header_size != 0 && !in.read(text.data(), static_cast<std::streamsize>(header_size)))
    fail(path, "cannot read the header");
  const json header = parse_header(path, text);
  const std::uint64_t buffer_size = file_size - 8 - header_size;

  std::vector<Entry> entries;
  for (const auto& [name, value] : header.items()) {
    if (name == kMetadataKey)
      read_metadata(path, value, metadata);
    else
      entries.push_back(read_entry(path, name, value, buffer_size));
  }
  check_coverage(path, entries, buffer_size);

  // Entries are now in file order and tile the buffer, so one sequential pass reads them all.
  TensorMap tensors;
  for (const Entry& e : entries) {
    at::Tensor t = at::empty(e.shape, at::TensorOptions().dtype(e.dtype->type));
    const std::uint64_t nbytes = e.end - e.begin;
    if (nbytes != 0 &&
        !in.read(static_cast<char*>(t.data_ptr()), static_cast<std::streamsize>(nbytes)))
      fail_tensor(path, e.name, "cannot read " + std::to_string(nbytes) + " bytes of data");
    if (e.dtype->type == at::kBool) {
      const auto* bytes = static_cast<const unsigned char*>(t.data_ptr());
      for (std::uint64_t i = 0; i < nbytes; ++i)
        if (bytes[i] > 1)
          fail_tensor(path, e.name,
                      "BOOL element " + std::to_string(i) + " has byte value " +
                          std::to_string(bytes[i]) + ", not 0 or 1");
    }
    tensors.emplace(e.name, std::move(t));
  }
  return tensors;
}

void write_safetensors(const std::string& path, const TensorMap& tensors,
                       const std::map<std::string, std::string>& metadata) {
  // Plan the whole file (and reject what cannot be stored) before touching the disk.
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) {
    auto& meta = header[kMetadataKey] = nlohmann::ordered_json::object();
    for (const auto& [key, value] : metadata) meta[key] = value;
  }
  struct Planned {
    const std::string* name;
    const at::Tensor* tensor;
    std::uint64_t nbytes;
  };
  std::vector<Planned> plan;
  std::uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    if (name == kMetadataKey) fail(path, "tensor name '__metadata__' is reserved");
    if (!t.defined()) fail_tensor(path, name, "tensor is undefined");
    if (t.layout() != at::kStrided)
      fail_tensor(path, name, "only dense tensors can be stored (layout is not strided)");
    const Dtype* dtype = dtype_by_type(t.scalar_type());
    if (!dtype)
      fail_tensor(path, name,
                  std::string("dtype ") + c10::toString(t.scalar_type()) +
                      " cannot be stored (supported: " + supported_dtypes() + ")");
    const std::uint64_t nbytes = static_cast<std::uint64_t>(t.numel()) * dtype->size;
    auto& entry = header[name] = nlohmann::ordered_json::object();
    entry["dtype"] = dtype->name;
    entry["shape"] = t.sizes().vec();
    entry["data_offsets"] = {offset, offset + nbytes};
    offset += nbytes;
    plan.push_back({&name, &t, nbytes});
  }
  std::string text;
  try {
    text = header.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::exception& e) {
    fail(path, std::string("tensor names and metadata must be valid UTF-8: ") + e.what());
  }
  text.append((8 - text.size() % 8) % 8, ' ');
  unsigned char length_bytes[8];
  for (int i = 0; i < 8; ++i) length_bytes[i] = static_cast<unsigned char>(text.size() >> (8 * i));

  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) fail(path, "cannot create temporary file '" + tmp + "': " + os_error());
  try {
    write_all(f, length_bytes, 8, path, "header length");
    write_all(f, text.data(), text.size(), path, "header");
    for (const Planned& p : plan) {
      at::Tensor c;
      try {
        c = p.tensor->detach().to(at::kCPU).resolve_conj().resolve_neg().contiguous();
      } catch (const std::exception& e) {
        fail_tensor(path, *p.name, std::string("cannot copy to CPU memory: ") + e.what());
      }
      write_all(f, c.data_ptr(), p.nbytes, path, "data of tensor '" + *p.name + "'");
    }
    if (std::fflush(f) != 0) fail(path, "cannot write '" + tmp + "': " + os_error());
    if (::fsync(::fileno(f)) != 0) fail(path, "cannot sync '" + tmp + "': " + os_error());
    std::FILE* closing = f;
    f = nullptr;
    if (std::fclose(closing) != 0) fail(path, "cannot close '" + tmp + "': " + os_error());
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      fail(path, "cannot rename '" + tmp + "' to it: " + os_error());
  } catch (...) {
    if (f) std::fclose(f);
    std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace moe::io
