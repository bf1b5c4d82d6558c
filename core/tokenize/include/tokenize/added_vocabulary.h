#pragma once
// tokenizer.json's "added_tokens": tokens found in the text before normalization and
// pre-tokenization and given their id whole. Those with "normalized": false are matched in the
// raw text, the others in each normalized piece; at each position the longest token wins (the
// leftmost-longest rule of `tokenizers`' Aho-Corasick automaton), then single_word, lstrip and
// rstrip apply. "special" tokens are the ones decode skips when asked to.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tokenize/json_fields.h"
#include "tokenize/normalizer.h"
#include "tokenize/piece.h"

namespace moe::tokenize {

class BpeModel;

struct AddedToken {
  std::string content;
  std::uint32_t id = 0;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
  // What decode gives for the token: its content, normalized when the token is (as
  // `tokenizers` 0.23 does: "▁<tool>" for "<tool>" under a Prepend("▁") normalizer).
  std::string decoded;
};

class AddedVocabulary {
 public:
  AddedVocabulary();
  ~AddedVocabulary();
  AddedVocabulary(AddedVocabulary&&) noexcept;
  AddedVocabulary& operator=(AddedVocabulary&&) noexcept;

  // `spec` is tokenizer.json's "added_tokens" (null or an array). A token already in the model's
  // vocabulary keeps the model's id; `normalizer` (may be null) normalizes the patterns of
  // normalized tokens.
  AddedVocabulary(const Json& spec, const std::string& path, const BpeModel& model,
                  const Normalizer* normalizer);

  // `text` cut into added tokens and other pieces, the other pieces normalized (`normalizer`
  // may be null), as AddedVocabulary::extract_and_normalize does.
  std::vector<Piece> extract_and_normalize(const std::string& text,
                                           const Normalizer* normalizer) const;

  std::optional<std::uint32_t> token_to_id(const std::string& content) const;
  // The token's decoded form (AddedToken::decoded), or nullptr.
  const std::string* id_to_token(std::uint32_t id) const;
  bool is_special_id(std::uint32_t id) const;

 private:
  struct Matcher;  // a byte trie for leftmost-longest matching
  void split(const Piece& piece, const Matcher& matcher, std::vector<Piece>& out) const;

  std::vector<AddedToken> tokens_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::unordered_map<std::uint32_t, std::size_t> by_id_;  // id -> index in tokens_
  std::unordered_set<std::string> special_;               // contents of the special tokens
  std::unique_ptr<Matcher> raw_matcher_;                  // tokens with normalized: false
  std::unique_ptr<Matcher> normalized_matcher_;           // the others, their content normalized
};

}  // namespace moe::tokenize
