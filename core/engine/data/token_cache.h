#pragma once
// The token cache of a text corpus (docs/MODELS.md, "Data for these models"): the ids of every
// document followed by the end-of-document id, written once and memory-mapped on every later run.
//
// Layout (little-endian):
//   [0, 8)        "MOETOKC1" (the format's version is the last character)
//   [8, 16)       uint64: length L of the JSON header
//   [16, 16 + L)  the JSON header (TokenCacheInfo), padded with spaces up to kTokenCachePayload
//   [4096, ...)   the tokens, uint16 or uint32 (token_bytes)
//   then, from the next multiple of 8: uint64 end of each document (in tokens, after its EOS)
// A cache is written to a temporary file in the same folder and renamed into place, so a reader
// sees a complete file or none.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/mapped_file.h"
#include "data/token_stream.h"

namespace moe::data {

inline constexpr int64_t kTokenCachePayload = 4096;

struct TokenCacheInfo {
  std::string source;                 // the data it was made from (for people)
  std::string source_fingerprint;     // each file's path, size, mtime and first and last 64 KiB
  std::string tokenizer;              // the tokenizer.json, or "bytes"
  std::string tokenizer_fingerprint;  // the tokenizer file, the EOS id, the kind, the JSON field
  int token_bytes = 2;                // 2: uint16, 4: uint32
  int64_t tokens = 0, documents = 0;
  int64_t eos = 0;
  int64_t max_id = -1;  // the largest id in the cache (-1: empty)
};

// A complete cache, mapped. DataError "token cache '<path>': ..." for a file that is not one:
// wrong magic, a header that does not parse, a size that disagrees with the header (truncated),
// document ends out of order.
class TokenCache : public TokenStream {
 public:
  explicit TokenCache(const std::string& path);
  const TokenCacheInfo& info() const { return info_; }
  const std::string& path() const { return file_.path(); }
  int64_t size() const override { return info_.tokens; }
  void copy(int64_t offset, int64_t n, int64_t* out) const override;
  // End of document i (in tokens, after its EOS).
  int64_t document_end(int64_t i) const;

 private:
  MappedFile file_;
  TokenCacheInfo info_;
  const uint8_t* tokens_ = nullptr;
  const uint8_t* ends_ = nullptr;
};

// The cache's header when the file starts like one of this version, else nothing (a missing file,
// another version: rebuilt). Throws DataError for a file of this version whose header is damaged.
std::optional<TokenCacheInfo> read_token_cache_info(const std::string& path);

// Writes a cache document by document into `path`.tmp-<pid>; finish() renames it to `path`. A
// writer destroyed before finish() removes its temporary file.
class TokenCacheWriter {
 public:
  // DataError naming the file when it cannot be created.
  TokenCacheWriter(std::string path, int token_bytes);
  ~TokenCacheWriter();
  TokenCacheWriter(const TokenCacheWriter&) = delete;
  TokenCacheWriter& operator=(const TokenCacheWriter&) = delete;

  // The document's ids, its EOS included.
  void add_document(const std::vector<uint32_t>& ids);
  int64_t tokens() const { return tokens_; }
  // Fills in counts and max_id, writes the header, syncs and renames into place.
  void finish(TokenCacheInfo info);

 private:
  void write(const void* data, size_t bytes);

  std::string path_, temp_;
  int token_bytes_;
  int fd_ = -1;
  int64_t tokens_ = 0;
  int64_t max_id_ = -1;
  std::vector<uint64_t> ends_;
  std::vector<uint8_t> buffer_;
};

}  // namespace moe::data
