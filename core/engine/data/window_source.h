#pragma once
// Language-model batches cut from one token stream (data.kind "text", "jsonl", "megatron"): the
// first (1 - val_fraction) of the tokens train, the rest is held out. Train batch i: windows of
// seq_len + 1 tokens at offsets drawn from a generator seeded by (seed, i); eval batch j: the
// held-out part's contiguous non-overlapping windows j*B .. (j+1)*B-1. Inputs are a window's first
// seq_len tokens, targets its last seq_len. train_samples() counts the non-overlapping windows of
// the training part.
#include <cstdint>
#include <memory>
#include <string>

#include "data/batch_source.h"
#include "data/token_stream.h"

namespace moe::data {

struct WindowSourceSpec {
  std::string path;  // the data, for errors and describe()
  std::string what;  // how describe() starts: "text 'corpus.txt'"
  std::string unit;  // what a token is called in messages: "bytes", "tokens"
  int64_t seq_len = 0;
  double val_fraction = 0;
  uint64_t seed = 0;
};

// DataError naming the file when the stream is empty or a part is shorter than one window.
std::unique_ptr<BatchSource> make_window_source(std::shared_ptr<const TokenStream> tokens,
                                                const WindowSourceSpec& spec);

}  // namespace moe::data
