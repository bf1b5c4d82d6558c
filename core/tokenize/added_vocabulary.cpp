// Added tokens (added_vocabulary.h), following `tokenizers`' AddedVocabulary: ids assigned as
// add_tokens assigns them while a tokenizer.json is read, matches found leftmost-longest, then
// single_word, lstrip and rstrip applied to each match.
#include "tokenize/added_vocabulary.h"

#include <bitset>

#include "tokenize/bpe_model.h"
#include "tokenize/tokenizer_error.h"
#include "tokenize/unicode_text.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {

// A trie over the tokens' bytes. At each position of the text the longest token starting there
// is taken; positions are tried left to right, so the first match is the leftmost one.
struct AddedVocabulary::Matcher {
  struct Node {
    std::vector<std::pair<unsigned char, std::int32_t>> children;
    std::int32_t token = -1;  // index into tokens_ of the token ending here
  };
  std::vector<Node> nodes{Node{}};
  std::bitset<256> first_bytes;

  void add(const std::string& pattern, std::int32_t token) {
    if (pattern.empty()) return;
    std::int32_t node = 0;
    for (const char c : pattern) {
      const auto byte = static_cast<unsigned char>(c);
      std::int32_t child = -1;
      for (const auto& [b, index] : nodes[node].children) {
        if (b == byte) child = index;
      }
      if (child < 0) {
        child = static_cast<std::int32_t>(nodes.size());
        nodes[node].children.emplace_back(byte, child);
        nodes.emplace_back();
      }
      node = child;
    }
    if (nodes[node].token < 0) nodes[node].token = token;  // the first of equal patterns wins
    first_bytes.set(static_cast<unsigned char>(pattern[0]));
  }

  // The longest token starting at `pos`: its index and end, or index -1.
  std::pair<std::int32_t, std::size_t> longest_at(const std::string& text, std::size_t pos) const {
    std::pair<std::int32_t, std::size_t> best{-1, pos};
    std::int32_t node = 0;
    for (std::size_t i = pos; i < text.size(); ++i) {
      const auto byte = static_cast<unsigned char>(text[i]);
      std::int32_t child = -1;
      for (const auto& [b, index] : nodes[node].children) {
        if (b == byte) child = index;
      }
      if (child < 0) break;
      node = child;
      if (nodes[node].token >= 0) best = {nodes[node].token, i + 1};
    }
    return best;
  }
};

AddedVocabulary::AddedVocabulary()
    : raw_matcher_(std::make_unique<Matcher>()), normalized_matcher_(std::make_unique<Matcher>()) {}
AddedVocabulary::~AddedVocabulary() = default;
AddedVocabulary::AddedVocabulary(AddedVocabulary&&) noexcept = default;
AddedVocabulary& AddedVocabulary::operator=(AddedVocabulary&&) noexcept = default;

namespace {

bool same_token(const AddedToken& a, const AddedToken& b) {
  return a.content == b.content && a.single_word == b.single_word && a.lstrip == b.lstrip &&
         a.rstrip == b.rstrip && a.normalized == b.normalized && a.special == b.special;
}

}  // namespace

AddedVocabulary::AddedVocabulary(const Json& spec, const std::string& path, const BpeModel& model,
                                 const Normalizer* normalizer)
    : AddedVocabulary() {
  if (spec.is_null()) return;
  if (!spec.is_array()) refuse(path, "expected an array");
  std::optional<std::uint32_t> max_added_id;
  const auto model_size = static_cast<std::uint32_t>(model.vocab_size());
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i) + "]";
    const Json& entry = spec[i];
    AddedToken token;
    token.content = required_string(entry, "content", where);
    token.single_word = bool_field(entry, "single_word", where, false);
    token.lstrip = bool_field(entry, "lstrip", where, false);
    token.rstrip = bool_field(entry, "rstrip", where, false);
    token.special = bool_field(entry, "special", where, false);
    token.normalized = bool_field(entry, "normalized", where, !token.special);
    if (token.content.empty()) continue;
    bool repeated = false;
    for (const AddedToken& t : tokens_) repeated = repeated || same_token(t, token);
    if (repeated) continue;
    // The id add_tokens gives: the existing one (added or in the model), else the next free one.
    // (The "id" written in the file is what it was given when saved, normally the same.)
    if (const auto it = ids_.find(token.content); it != ids_.end()) {
      token.id = it->second;
    } else if (const auto model_id = model.token_to_id(token.content)) {
      token.id = *model_id;
    } else if (!max_added_id) {
      token.id = model_size;
    } else {
      token.id = (*max_added_id >= model_size || model_size == 0) ? *max_added_id + 1 : model_size;
    }
    if (!max_added_id || token.id > *max_added_id) max_added_id = token.id;
    if (token.special) special_.insert(token.content);
    ids_[token.content] = token.id;
    // A token given again with other flags replaces the first (same id).
    bool replaced = false;
    for (AddedToken& t : tokens_) {
      if (t.content == token.content) {
        t = token;
        replaced = true;
      }
    }
    if (!replaced) tokens_.push_back(token);
  }
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    AddedToken& t = tokens_[i];
    by_id_[t.id] = i;
    t.decoded = t.content;
    if (t.normalized && normalizer) normalizer->normalize(t.decoded);
  }
  // Special tokens are matched before the others when both match the same text.
  for (const bool special_pass : {true, false}) {
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      const AddedToken& t = tokens_[i];
      if (t.special != special_pass) continue;
      const auto index = static_cast<std::int32_t>(i);
      if (!t.normalized) {
        raw_matcher_->add(t.content, index);
      } else {
        normalized_matcher_->add(t.decoded, index);
      }
    }
  }
}

std::optional<std::uint32_t> AddedVocabulary::token_to_id(const std::string& content) const {
  const auto it = ids_.find(content);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

const std::string* AddedVocabulary::id_to_token(std::uint32_t id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &tokens_[it->second].decoded;
}

bool AddedVocabulary::is_special_id(std::uint32_t id) const {
  const auto it = by_id_.find(id);
  return it != by_id_.end() && special_.count(tokens_[it->second].content) > 0;
}

namespace {

char32_t last_code_point(const std::string& text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && (static_cast<unsigned char>(text[begin - 1]) & 0xC0) == 0x80) --begin;
  if (begin > 0) --begin;
  return next_code_point(text, begin);
}

// Start of the run of whitespace that ends at `end`.
std::size_t whitespace_run_start(const std::string& text, std::size_t end) {
  while (end > 0) {
    std::size_t begin = end - 1;
    while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
    std::size_t pos = begin;
    if (!is_whitespace(next_code_point(text, pos))) break;
    end = begin;
  }
  return end;
}

// End of the run of whitespace that starts at `begin`.
std::size_t whitespace_run_end(const std::string& text, std::size_t begin) {
  while (begin < text.size()) {
    std::size_t pos = begin;
    if (!is_whitespace(next_code_point(text, pos))) break;
    begin = pos;
  }
  return begin;
}

}  // namespace

void AddedVocabulary::split(const Piece& piece, const Matcher& matcher,
                            std::vector<Piece>& out) const {
  const std::string& text = piece.text;
  auto emit = [&](std::size_t start, std::size_t stop, std::optional<std::uint32_t> id) {
    if (stop <= start) return;  // empty pieces are dropped
    Piece part;
    part.text = text.substr(start, stop - start);
    part.at_text_start = piece.at_text_start && start == 0;
    part.token = id;
    out.push_back(std::move(part));
  };
  if (matcher.nodes.size() == 1) {
    emit(0, text.size(), std::nullopt);
    return;
  }
  std::size_t start_offset = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    if (!matcher.first_bytes.test(static_cast<unsigned char>(text[pos]))) {
      ++pos;
      continue;
    }
    const auto [index, match_end] = matcher.longest_at(text, pos);
    if (index < 0) {
      ++pos;
      continue;
    }
    std::size_t start = pos, stop = match_end;
    pos = match_end;  // the automaton goes on after the match, whatever is made of it
    const AddedToken& token = tokens_[index];
    if (token.single_word) {
      std::size_t after = stop;
      const bool word_before = start > 0 && is_word_character(last_code_point(text, start));
      const bool word_after = stop < text.size() && is_word_character(next_code_point(text, after));
      if (word_before || word_after) continue;
    }
    if (token.lstrip) start = std::max(whitespace_run_start(text, start), start_offset);
    if (token.rstrip) stop = whitespace_run_end(text, stop);
    if (start_offset < start) emit(start_offset, start, std::nullopt);
    emit(start, stop, token.id);
    start_offset = stop;
  }
  if (start_offset < text.size()) emit(start_offset, text.size(), std::nullopt);
}

std::vector<Piece> AddedVocabulary::extract_and_normalize(const std::string& text,
                                                          const Normalizer* normalizer) const {
  std::vector<Piece> raw;
  split(Piece{text, true, std::nullopt}, *raw_matcher_, raw);
  std::vector<Piece> pieces;
  pieces.reserve(raw.size());
  for (Piece& piece : raw) {
    if (piece.token) {
      pieces.push_back(std::move(piece));
      continue;
    }
    if (normalizer) normalizer->normalize(piece.text);
    split(piece, *normalized_matcher_, pieces);
  }
  return pieces;
}

}  // namespace moe::tokenize
