// libFuzzer: arbitrary bytes as a safetensors header's JSON text, with a data size the first
// bytes choose. The reader either refuses the header with a SafetensorsError or returns tensors
// that keep its promises: each spans exactly its dtype's bytes for its shape, and together they
// tile the data.
#include <cstddef>
#include <cstdint>
#include <string>

#include "protocol/safetensors_header.h"

using namespace moe::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint64_t data_size = 0;
  if (size >= 2) {
    data_size = data[0] | (static_cast<uint64_t>(data[1]) << 8);
    data += 2;
    size -= 2;
  }
  const std::string text(reinterpret_cast<const char*>(data), size);
  SafetensorsHeader header;
  try {
    header = parse_safetensors_header("fuzz", text, data_size);
  } catch (const SafetensorsError&) {
    return 0;
  }
  uint64_t covered = 0;
  for (const auto& [name, e] : header.tensors) {
    const auto element = safetensors_dtype_size(e.dtype);
    if (!element) __builtin_trap();
    uint64_t bytes = *element;
    for (int64_t d : e.shape) {
      if (d < 0) __builtin_trap();
      bytes *= static_cast<uint64_t>(d);
    }
    if (e.end - e.begin != bytes || e.end > data_size) __builtin_trap();
    covered += bytes;
  }
  if (covered != data_size) __builtin_trap();
  if (header.names_in_file_order().size() != header.tensors.size()) __builtin_trap();
  return 0;
}
