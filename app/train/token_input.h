#pragma once
// Token ids a command reads from a JSON file (forward --tokens, generate --prompt-tokens): a JSON
// array of non-empty arrays of ids below the model's vocabulary size.
#include <torch/torch.h>

#include <string>
#include <vector>

namespace moe::train {

// InputError naming the file, the row and the position of what is wrong.
std::vector<std::vector<int64_t>> read_token_rows(const std::string& path, int64_t vocab);

// The rows as int64 [B, T]; they must be of equal length.
at::Tensor read_token_file(const std::string& path, int64_t vocab);

}  // namespace moe::train
