// The BPE model (bpe_model.h), following `tokenizers`' models/bpe: merge_word builds the
// symbols, Word::merge_all merges them.
#include "tokenize/bpe_model.h"

#include <cstdio>
#include <queue>

#include "tokenize/tokenizer_error.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {

BpeModel::BpeModel(const Json& spec, const std::string& path) {
  const auto dropout = spec.find("dropout");
  if (dropout != spec.end() && !dropout->is_null() &&
      !(dropout->is_number() && dropout->get<double>() == 0.0)) {
    refuse(path + ".dropout", "BPE dropout is random; only null or 0 is supported");
  }
  const std::string unk = string_field(spec, "unk_token", path, "");
  if (spec.contains("unk_token") && !spec["unk_token"].is_null()) unk_token_ = unk;
  continuing_subword_prefix_ = string_field(spec, "continuing_subword_prefix", path, "");
  end_of_word_suffix_ = string_field(spec, "end_of_word_suffix", path, "");
  fuse_unk_ = bool_field(spec, "fuse_unk", path, false);
  byte_fallback_ = bool_field(spec, "byte_fallback", path, false);
  ignore_merges_ = bool_field(spec, "ignore_merges", path, false);
  read_vocab(required_field(spec, "vocab", path), path + ".vocab");
  read_merges(required_field(spec, "merges", path), path + ".merges");
}

void BpeModel::read_vocab(const Json& vocab, const std::string& path) {
  if (!vocab.is_object()) refuse(path, "expected an object of token: id");
  vocab_.reserve(vocab.size());
  for (auto it = vocab.begin(); it != vocab.end(); ++it) {
    if (!it->is_number_unsigned() || it->get<std::uint64_t>() > 0xFFFFFFFEull) {
      refuse(path + "[\"" + it.key() + "\"]", "expected a non-negative integer id");
    }
    const auto id = it->get<std::uint32_t>();
    vocab_[it.key()] = id;
    if (id >= tokens_by_id_.size()) {
      tokens_by_id_.resize(id + 1);
      id_present_.resize(id + 1, false);
    }
    tokens_by_id_[id] = it.key();
    id_present_[id] = true;
    std::size_t pos = 0;
    if (!it.key().empty() && is_valid_utf8(it.key())) {
      const char32_t cp = next_code_point(it.key(), pos);
      if (pos == it.key().size()) single_chars_[cp] = id;
    }
  }
  byte_tokens_.assign(256, std::nullopt);
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    const auto it = vocab_.find(name);
    if (it != vocab_.end()) byte_tokens_[b] = it->second;
  }
}

void BpeModel::read_merges(const Json& merges, const std::string& path) {
  if (!merges.is_array()) refuse(path, "expected an array");
  merges_.reserve(merges.size());
  const std::size_t prefix_len = continuing_subword_prefix_.size();
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const Json& merge = merges[rank];
    const std::string where = path + "[" + std::to_string(rank) + "]";
    std::string a, b;
    if (merge.is_string()) {
      // The older "a b" form, split at its first space.
      const std::string line = merge.get<std::string>();
      const auto space = line.find(' ');
      if (space == std::string::npos) refuse(where, "expected \"a b\", got \"" + line + "\"");
      a = line.substr(0, space);
      b = line.substr(space + 1);
    } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() &&
               merge[1].is_string()) {
      a = merge[0].get<std::string>();
      b = merge[1].get<std::string>();
    } else {
      refuse(where, "expected \"a b\" or [\"a\", \"b\"]");
    }
    const auto a_id = vocab_.find(a);
    const auto b_id = vocab_.find(b);
    if (a_id == vocab_.end()) refuse(where, "\"" + a + "\" is not in the vocabulary");
    if (b_id == vocab_.end()) refuse(where, "\"" + b + "\" is not in the vocabulary");
    if (b.size() < prefix_len) refuse(where, "\"" + b + "\" is shorter than the subword prefix");
    const std::string merged = a + b.substr(prefix_len);
    const auto new_id = vocab_.find(merged);
    if (new_id == vocab_.end()) refuse(where, "\"" + merged + "\" is not in the vocabulary");
    // A repeated pair keeps its last rank, as a Rust HashMap collected from the list does.
    merges_[pair_key(a_id->second, b_id->second)] = {static_cast<std::uint32_t>(rank),
                                                     new_id->second};
  }
}

std::optional<std::uint32_t> BpeModel::token_to_id(const std::string& token) const {
  const auto it = vocab_.find(token);
  if (it == vocab_.end()) return std::nullopt;
  return it->second;
}

const std::string* BpeModel::id_to_token(std::uint32_t id) const {
  if (id >= tokens_by_id_.size() || !id_present_[id]) return nullptr;
  return &tokens_by_id_[id];
}

std::optional<std::uint32_t> BpeModel::symbol_id(const std::string& word, std::size_t begin,
                                                 std::size_t end, bool first, bool last) const {
  const bool decorated =
      (!first && !continuing_subword_prefix_.empty()) || (last && !end_of_word_suffix_.empty());
  if (!decorated) {
    std::size_t pos = begin;
    const char32_t cp = next_code_point(word, pos);
    const auto it = single_chars_.find(cp);
    if (it == single_chars_.end()) return std::nullopt;
    return it->second;
  }
  std::string symbol = word.substr(begin, end - begin);
  if (!first) symbol.insert(0, continuing_subword_prefix_);
  if (last) symbol += end_of_word_suffix_;
  return token_to_id(symbol);
}

std::vector<std::uint32_t> BpeModel::initial_symbols(const std::string& word) const {
  std::vector<std::uint32_t> symbols;
  symbols.reserve(word.size());
  std::optional<std::uint32_t> pending_unk;  // an unk not yet added (fuse_unk joins them)
  for (std::size_t pos = 0; pos < word.size();) {
    const std::size_t begin = pos;
    next_code_point(word, pos);
    const auto id = symbol_id(word, begin, pos, begin == 0, pos == word.size());
    if (id) {
      if (pending_unk) symbols.push_back(*pending_unk);
      pending_unk.reset();
      symbols.push_back(*id);
      continue;
    }
    if (byte_fallback_) {
      bool all_bytes = true;
      for (std::size_t i = begin; i < pos && all_bytes; ++i) {
        all_bytes = byte_tokens_[static_cast<unsigned char>(word[i])].has_value();
      }
      if (all_bytes) {
        // As in `tokenizers`, a pending unk stays pending across byte tokens.
        for (std::size_t i = begin; i < pos; ++i) {
          symbols.push_back(*byte_tokens_[static_cast<unsigned char>(word[i])]);
        }
        continue;
      }
    }
    if (!unk_token_) continue;  // no unk token: the character is dropped, as `tokenizers` does
    const auto unk_id = token_to_id(*unk_token_);
    if (!unk_id) {
      throw TokenizerError("model.unk_token: \"" + *unk_token_ + "\" is not in the vocabulary");
    }
    if (pending_unk && !fuse_unk_) symbols.push_back(*pending_unk);
    pending_unk = unk_id;
  }
  if (pending_unk) symbols.push_back(*pending_unk);
  return symbols;
}

void BpeModel::merge(std::vector<std::uint32_t>& symbols) const {
  if (symbols.size() < 2) return;
  struct Candidate {
    std::uint32_t rank;
    std::uint32_t pos;
    std::uint32_t new_id;
    // std::priority_queue is a max-heap: "less" is the higher rank, then the later position.
    bool operator<(const Candidate& o) const {
      return rank != o.rank ? rank > o.rank : pos > o.pos;
    }
  };
  const auto n = static_cast<std::int32_t>(symbols.size());
  std::vector<std::int32_t> prev(n), next(n);
  std::vector<bool> removed(n, false);
  for (std::int32_t i = 0; i < n; ++i) {
    prev[i] = i - 1;
    next[i] = i + 1 < n ? i + 1 : -1;
  }
  std::priority_queue<Candidate> queue;
  auto push_pair = [&](std::int32_t left) {
    const std::int32_t right = next[left];
    if (right < 0) return;
    const auto it = merges_.find(pair_key(symbols[left], symbols[right]));
    if (it != merges_.end()) {
      queue.push({it->second.rank, static_cast<std::uint32_t>(left), it->second.new_id});
    }
  };
  for (std::int32_t i = 0; i + 1 < n; ++i) push_pair(i);
  while (!queue.empty()) {
    const Candidate top = queue.top();
    queue.pop();
    const auto pos = static_cast<std::int32_t>(top.pos);
    if (removed[pos] || next[pos] < 0) continue;
    const std::int32_t right = next[pos];
    // An entry made stale by an earlier merge no longer names this pair's result.
    const auto it = merges_.find(pair_key(symbols[pos], symbols[right]));
    if (it == merges_.end() || it->second.new_id != top.new_id) continue;
    symbols[pos] = top.new_id;
    removed[right] = true;
    next[pos] = next[right];
    if (next[right] >= 0) prev[next[right]] = pos;
    if (prev[pos] >= 0) push_pair(prev[pos]);
    push_pair(pos);
  }
  std::size_t kept = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (!removed[i]) symbols[kept++] = symbols[i];
  }
  symbols.resize(kept);
}

void BpeModel::tokenize(const std::string& word, std::vector<std::uint32_t>& ids) const {
  if (word.empty()) return;
  if (ignore_merges_) {
    if (const auto id = token_to_id(word)) {
      ids.push_back(*id);
      return;
    }
  }
  // The word's shard: threads encoding documents at once (the token cache) rarely share a lock.
  CacheShard& shard = cache_[std::hash<std::string>{}(word) % kCacheShards];
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    const auto hit = shard.words.find(word);
    if (hit != shard.words.end()) {
      ids.insert(ids.end(), hit->second.begin(), hit->second.end());
      return;
    }
  }
  std::vector<std::uint32_t> symbols = initial_symbols(word);
  merge(symbols);
  ids.insert(ids.end(), symbols.begin(), symbols.end());
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (shard.words.size() < kCacheCapacity / kCacheShards && word.size() <= kLongestCachedWord) {
    shard.words.emplace(word, std::move(symbols));
  }
}

}  // namespace moe::tokenize
