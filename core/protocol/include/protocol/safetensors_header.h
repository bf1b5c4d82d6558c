// The table of contents of a safetensors file (https://huggingface.co/docs/safetensors): an
// 8-byte little-endian header length N, N bytes of JSON naming each tensor's dtype, shape and
// byte range (and an optional "__metadata__" of strings), then the data. One reader with one set
// of rules, without Torch: the engine reads tensors through it (io/safetensors.h) and the app
// reads names and shapes with it (the What-if view), so both accept and refuse the same files.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace moe::protocol {

// Any problem with a safetensors file. The message names the file, the tensor or field involved
// where there is one, and what is wrong.
struct SafetensorsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr const char* kSafetensorsMetadataKey = "__metadata__";
// The reference implementation refuses larger headers too (MAX_HEADER_SIZE).
inline constexpr uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;

// The bytes of one element of a dtype this reader knows ("F64", "F32", "F16", "BF16", "I64",
// "I32", "I16", "I8", "U8", "BOOL"); nullopt for any other name.
std::optional<uint64_t> safetensors_dtype_size(const std::string& dtype);
// "F64, F32, ...": the dtypes above, for messages.
std::string safetensors_dtype_list();

struct SafetensorsEntry {
  std::string dtype;            // one of the known dtypes
  std::vector<int64_t> shape;   // empty: a scalar
  uint64_t begin = 0, end = 0;  // byte range within the data that follows the header
};

struct SafetensorsHeader {
  std::map<std::string, SafetensorsEntry> tensors;  // by name
  std::map<std::string, std::string> metadata;      // "__metadata__" (empty when absent)
  uint64_t data_offset = 0;                         // where the data starts in the file
  uint64_t data_size = 0;                           // the data's bytes, all covered by tensors

  const SafetensorsEntry* find(const std::string& name) const;
  // The tensors' names in the order of their data in the file.
  std::vector<std::string> names_in_file_order() const;
};

// The header of the file at `path`, checked whole: a length that fits the file and the limit,
// JSON without NUL bytes, duplicate keys or nesting a header does not have; each tensor with
// exactly dtype (a known one), shape (sizes >= 0 whose bytes do not overflow) and data_offsets
// ([begin, end] spanning exactly its bytes); the tensors tiling the data with no overlap, gap or
// trailing byte; metadata of strings. SafetensorsError "safetensors file '<path>': ..." otherwise.
SafetensorsHeader read_safetensors_header(const std::string& path);

// The same checks on a header's JSON text whose data is `data_size` bytes (`path` for messages).
SafetensorsHeader parse_safetensors_header(const std::string& path, const std::string& text,
                                           uint64_t data_size);

}  // namespace moe::protocol
