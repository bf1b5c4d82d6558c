#pragma once
// The language-model sources over token streams: data.kind "text" with a tokenizer and "jsonl"
// (through the token cache, data/token_cache_builder.h) and "megatron" (read directly), all cut
// into windows by data/window_source.h.
#include <memory>
#include <string>

#include "data/batch_source.h"
#include "data/token_cache_builder.h"

namespace moe::data {

// "text" and "jsonl" with `tokenizer` (a tokenizer.json or a folder holding one; "" reads bytes,
// each document followed by data.eos_token or a line break).
std::unique_ptr<BatchSource> make_cached_corpus_source(const protocol::RunConfig& config,
                                                       const std::string& tokenizer,
                                                       const CacheProgressFn& progress);

// "megatron": data.path is the prefix of PREFIX.bin / PREFIX.idx. DataError naming PREFIX.bin
// when it holds an id >= model.vocab.
std::unique_ptr<BatchSource> make_megatron_source(const protocol::RunConfig& config);

}  // namespace moe::data
