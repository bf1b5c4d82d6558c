#pragma once
// data.kind "text": any file read as bytes, one token per byte (model.kind "lm"); a directory
// stands for all the files below it, concatenated in path order.
#include <cstdint>
#include <memory>
#include <string>

#include "data/batch_source.h"

namespace moe::data {

// The first (1 - val_fraction) of the bytes train, the rest is held out. Train batch i: windows of
// seq_len + 1 bytes at offsets drawn from a generator seeded by (seed, i); eval batch j: the
// held-out part's contiguous non-overlapping windows j*B .. (j+1)*B-1. train_samples() counts the
// non-overlapping windows of the training part. DataError naming the file when it is empty or a
// part is shorter than one window.
std::unique_ptr<BatchSource> make_text_source(const std::string& path, int64_t seq_len,
                                              double val_fraction, uint64_t seed);

}  // namespace moe::data
