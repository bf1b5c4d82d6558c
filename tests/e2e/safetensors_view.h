#pragma once
// A Torch-free reader of safetensors files for the end-to-end tests: names, dtypes and shapes
// from the header, and the raw bytes of each tensor, so tests can check what moe-train wrote
// (captures, replay outputs) without linking the engine.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace moe::test {

struct TensorView {
  std::string dtype;  // "F32", "I64", ...
  std::vector<int64_t> shape;
  std::string bytes;  // little-endian data
};

// Every tensor of the file; std::runtime_error naming the file when it is not a safetensors file.
std::map<std::string, TensorView> read_tensor_views(const std::string& path);

// Writes `tensors` as a safetensors file (name order, contiguous offsets).
void write_tensor_views(const std::string& path, const std::map<std::string, TensorView>& tensors);

// The values of an I64 tensor, and of an F32, F64 or BF16 tensor as doubles.
std::vector<int64_t> int64_values(const TensorView& t);
std::vector<double> double_values(const TensorView& t);

}  // namespace moe::test
