#pragma once
// tokenizer.json's "model" of type BPE: a word (one pre-tokenized piece) starts as one symbol per
// character (or its <0xNN> byte tokens with byte_fallback, or unk_token) and the mergeable
// adjacent pair of lowest rank is merged until none is left, exactly as `tokenizers`' BPE does
// (ties go to the leftmost pair). Merge ranks live in one hash map keyed by the pair of ids, the
// merging is a heap over the word's pairs, and every word's ids are cached (corpora repeat their
// words), so a corpus tokenizes at millions of tokens per second.
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenize/json_fields.h"

namespace moe::tokenize {

class BpeModel {
 public:
  // `spec` is tokenizer.json's "model"; TokenizerError naming `path` for a field it cannot use
  // (dropout, a merge of tokens outside the vocabulary, ...).
  BpeModel(const Json& spec, const std::string& path);

  // Appends the ids of `word` to `ids`. Safe to call from several threads.
  void tokenize(const std::string& word, std::vector<std::uint32_t>& ids) const;

  std::optional<std::uint32_t> token_to_id(const std::string& token) const;
  // nullptr for an id outside the vocabulary.
  const std::string* id_to_token(std::uint32_t id) const;
  std::size_t vocab_size() const { return vocab_.size(); }

 private:
  struct MergeTarget {
    std::uint32_t rank;
    std::uint32_t new_id;
  };
  static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
    return (static_cast<std::uint64_t>(a) << 32) | b;
  }

  void read_vocab(const Json& vocab, const std::string& path);
  void read_merges(const Json& merges, const std::string& path);
  // The word's symbols before merging.
  std::vector<std::uint32_t> initial_symbols(const std::string& word) const;
  // `symbols` merged by rank.
  void merge(std::vector<std::uint32_t>& symbols) const;
  std::optional<std::uint32_t> symbol_id(const std::string& word, std::size_t begin,
                                         std::size_t end, bool first, bool last) const;

  std::unordered_map<std::string, std::uint32_t> vocab_;
  std::vector<std::string> tokens_by_id_;
  std::vector<bool> id_present_;
  std::unordered_map<char32_t, std::uint32_t> single_chars_;  // one-character tokens
  std::unordered_map<std::uint64_t, MergeTarget> merges_;
  std::optional<std::string> unk_token_;
  std::string continuing_subword_prefix_;
  std::string end_of_word_suffix_;
  bool fuse_unk_ = false;
  bool byte_fallback_ = false;
  bool ignore_merges_ = false;
  std::vector<std::optional<std::uint32_t>> byte_tokens_;  // <0xNN> for each byte, if present

  static constexpr std::size_t kCacheCapacity = 1 << 19;
  static constexpr std::size_t kLongestCachedWord = 256;  // bytes; longer words are rare
  // The word cache, in shards by the word's hash, each with its own lock.
  static constexpr std::size_t kCacheShards = 16;
  struct CacheShard {
    std::mutex mutex;
    std::unordered_map<std::string, std::vector<std::uint32_t>> words;
  };
  mutable std::array<CacheShard, kCacheShards> cache_;
};

}  // namespace moe::tokenize
