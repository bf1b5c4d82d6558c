#pragma once
// A corpus as one stream of token ids, wherever it lives: bytes in memory (data.kind "text"
// without a tokenizer), a memory-mapped token cache, a Megatron indexed data set. The window
// source cuts training and held-out windows from it.
#include <cstdint>

namespace moe::data {

class TokenStream {
 public:
  virtual ~TokenStream() = default;
  // Tokens in the stream.
  virtual int64_t size() const = 0;
  // Tokens [offset, offset + n) as int64 into out; the range is inside the stream. Called from
  // the prefetch thread and the trainer's at once: only reads.
  virtual void copy(int64_t offset, int64_t n, int64_t* out) const = 0;
};

}  // namespace moe::data
