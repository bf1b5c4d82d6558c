#pragma once
// Finds or builds the token cache of a text corpus (data/token_cache.h): beside the data in
// `<data.path>.moe-tokens/` (or under data.cache_dir), one file per tokenizer, reused while the
// source's fingerprint and the tokenizer's match what its header records, else built again.
// Documents are encoded on every core (they are independent) and written in corpus order; one
// process builds while the others (the ranks of this machine) wait on a lock and then map it.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "data/document_encoder.h"
#include "data/token_cache.h"

namespace moe::data {

// How far a build is, for progress lines; `reused` when an existing cache was taken as it is.
struct CacheProgress {
  std::string cache;  // the cache file
  int64_t bytes_done = 0, bytes_total = 0;
  int64_t documents = 0, tokens = 0;
  double seconds = 0;
  bool done = false, reused = false;
};
using CacheProgressFn = std::function<void(const CacheProgress&)>;

struct TokenCacheRequest {
  std::string path;        // data.path: a file or a folder
  std::string text_field;  // jsonl: the document's field; "" for plain text (a file a document)
  std::string cache_dir;   // data.cache_dir ("": beside the data)
  int64_t vocab = 0;       // model.vocab: the token width, and ids at or above it are an error
  int threads = 0;         // encoding threads (0: every core this process may use)
};

// Where the cache of `request` under `encoder` lives.
std::string token_cache_path(const TokenCacheRequest& request, const DocumentEncoder& encoder);

// The mapped cache. DataError naming the file: a source that cannot be read, a document with an
// id >= vocab, a cache that cannot be written (a read-only place: set data.cache_dir), a damaged
// cache. `progress` (may be empty) is called after each batch of documents and once at the end.
std::shared_ptr<const TokenCache> open_token_cache(const TokenCacheRequest& request,
                                                   const DocumentEncoder& encoder,
                                                   const CacheProgressFn& progress);

}  // namespace moe::data
