#pragma once
// A Hugging Face tokenizer read from tokenizer.json: encode and decode give the ids and text
// the `tokenizers` package gives for the same file (docs/TOKENIZERS.md says which components
// are supported; any other is refused when the file is read, naming its JSON path). Encoding is
// the reference's pipeline: added tokens split out, normalizer, pre-tokenizer, BPE model,
// post-processor.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tokenize/added_vocabulary.h"
#include "tokenize/bpe_model.h"
#include "tokenize/decoder.h"
#include "tokenize/normalizer.h"
#include "tokenize/post_processor.h"
#include "tokenize/pre_tokenizer.h"

namespace moe::tokenize {

class Tokenizer {
 public:
  // TokenizerError naming the file (unreadable, not JSON) or the JSON path of what is refused.
  static Tokenizer from_file(const std::string& path);
  // `source` names the JSON in errors (a file name).
  static Tokenizer from_json(const std::string& json_text, const std::string& source);

  // The ids of `text` (any bytes: invalid UTF-8 is replaced with U+FFFD first), with what the
  // post-processor adds when `add_special_tokens` (the reference's default).
  std::vector<std::uint32_t> encode(const std::string& text, bool add_special_tokens = true) const;

  // The text of `ids`; special added tokens are left out when `skip_special_tokens` (the
  // reference's default). TokenizerError for an id that is neither in the vocabulary nor an
  // added token (the reference drops those silently).
  std::string decode(const std::vector<std::uint32_t>& ids, bool skip_special_tokens = true) const;

  std::size_t vocab_size() const;
  // The id of `token` (added or in the model), or nothing.
  std::optional<std::uint32_t> token_to_id(const std::string& token) const;
  // The token of `id` (added or in the model), or nullptr.
  const std::string* id_to_token(std::uint32_t id) const;

 private:
  Tokenizer(const nlohmann::json& spec, const std::string& source);

  std::unique_ptr<Normalizer> normalizer_;
  std::unique_ptr<PreTokenizer> pre_tokenizer_;
  std::unique_ptr<BpeModel> model_;
  std::unique_ptr<PostProcessor> post_processor_;
  std::unique_ptr<Decoder> decoder_;
  AddedVocabulary added_;
};

}  // namespace moe::tokenize
