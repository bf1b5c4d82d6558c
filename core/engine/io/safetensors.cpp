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

constexpr const char* kMetadataKey = protocol::kSafetensorsMetadataKey;

// The Torch type of each dtype the header reader knows (protocol/safetensors_header.h holds the
// names and their sizes).
struct Dtype {
  const char* name;
  at::ScalarType type;
};

constexpr Dtype kDtypes[] = {
    {"F64", at::kDouble}, {"F32", at::kFloat}, {"F16", at::kHalf},  {"BF16", at::kBFloat16},
    {"I64", at::kLong},   {"I32", at::kInt},   {"I16", at::kShort}, {"I8", at::kChar},
    {"U8", at::kByte},    {"BOOL", at::kBool},
};

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

void write_all(std::FILE* f, const void* data, std::size_t size, const std::string& path,
               const std::string& what) {
  if (size != 0 && std::fwrite(data, 1, size, f) != size)
    fail(path, "cannot write " + what + ": " + os_error());
}

}  // namespace

TensorMap read_safetensors(const std::string& path, std::map<std::string, std::string>* metadata) {
  if (metadata) metadata->clear();
  const protocol::SafetensorsHeader header = protocol::read_safetensors_header(path);
  if (metadata) *metadata = header.metadata;
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open: " + os_error());
  in.seekg(static_cast<std::streamoff>(header.data_offset));

  // The entries tile the buffer (checked): one sequential pass in file order reads them all.
  TensorMap tensors;
  for (const std::string& name : header.names_in_file_order()) {
    const protocol::SafetensorsEntry& e = header.tensors.at(name);
    const Dtype* dtype = dtype_by_name(e.dtype);
    if (!dtype) fail_tensor(path, name, "dtype " + e.dtype + " has no tensor type here");
    at::Tensor t = at::empty(e.shape, at::TensorOptions().dtype(dtype->type));
    const std::uint64_t nbytes = e.end - e.begin;
    if (nbytes != 0 &&
        !in.read(static_cast<char*>(t.data_ptr()), static_cast<std::streamsize>(nbytes)))
      fail_tensor(path, name, "cannot read " + std::to_string(nbytes) + " bytes of data");
    if (dtype->type == at::kBool) {
      const auto* bytes = static_cast<const unsigned char*>(t.data_ptr());
      for (std::uint64_t i = 0; i < nbytes; ++i)
        if (bytes[i] > 1)
          fail_tensor(path, name,
                      "BOOL element " + std::to_string(i) + " has byte value " +
                          std::to_string(bytes[i]) + ", not 0 or 1");
    }
    tensors.emplace(name, std::move(t));
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
                      " cannot be stored (supported: " + protocol::safetensors_dtype_list() + ")");
    const std::uint64_t nbytes =
        static_cast<std::uint64_t>(t.numel()) * *protocol::safetensors_dtype_size(dtype->name);
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
