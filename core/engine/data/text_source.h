#pragma once
// data.kind "text" without a tokenizer: any file read as bytes, one token per byte; a directory
// stands for all the files below it, concatenated in path order.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/batch_source.h"

namespace moe::data {

// The regular files `path` stands for: itself, or every regular file below a directory in path
// order. DataError naming the path when it is neither.
std::vector<std::string> data_files(const std::string& path);

// The bytes as windows (data/window_source.h: split, seeded training windows, contiguous eval
// windows). DataError naming the file when it is empty or a part is shorter than one window.
std::unique_ptr<BatchSource> make_text_source(const std::string& path, int64_t seq_len,
                                              double val_fraction, uint64_t seed);

}  // namespace moe::data
