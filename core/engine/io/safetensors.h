#pragma once
// Reading and writing the Hugging Face safetensors format
// (https://huggingface.co/docs/safetensors): an 8-byte little-endian header length N, N bytes of
// JSON describing each tensor (dtype, shape, data_offsets) plus optional "__metadata__", then the
// raw little-endian tensor bytes. Model weights and checkpoints use it (docs/ROUTING.md, "Parameter
// names"; docs/PROTOCOL.md, "The run directory").

#include <ATen/ATen.h>

#include <map>
#include <stdexcept>
#include <string>

#include "protocol/safetensors_header.h"

namespace moe::io {

// Any problem reading or writing a safetensors file. The message names the file, the tensor or
// field involved where there is one, and what is wrong. Reading checks the header with the one
// reader the app uses too (protocol/safetensors_header.h).
using SafetensorsError = protocol::SafetensorsError;

using TensorMap = std::map<std::string, at::Tensor>;

// Reads every tensor of the file at `path` into CPU tensors of the stored dtype and shape. When
// `metadata` is given it receives the "__metadata__" map (empty when the file has none).
// The file is fully validated first (header size, JSON, dtypes, shapes, offsets that cover the
// data buffer exactly, no duplicate names); any violation throws SafetensorsError.
// Supported dtypes: F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL.
TensorMap read_safetensors(const std::string& path,
                           std::map<std::string, std::string>* metadata = nullptr);

// Writes `tensors` (any device, any strides; stored contiguous) in name order with contiguous
// offsets and the header padded with spaces to a multiple of 8, as the reference implementation
// does. The file is written to `path + ".tmp-<pid>"` and renamed over `path`, so `path` is never
// left partially written; on failure the temporary file is removed and SafetensorsError thrown.
void write_safetensors(const std::string& path, const TensorMap& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace moe::io
