#pragma once
// How the documents of a text corpus become ids for the token cache: a Hugging Face tokenizer
// (moe_tokenize, the ids of the `tokenizers` package) or the document's bytes, each followed by
// the end-of-document id.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace moe::data {

class DocumentEncoder {
 public:
  virtual ~DocumentEncoder() = default;
  // The document's ids followed by eos(). Safe to call from several threads at once.
  virtual std::vector<uint32_t> encode(const std::string& document) const = 0;
  virtual uint32_t eos() const = 0;
  // The tokenizer file, or "bytes".
  virtual std::string name() const = 0;
  // Everything the ids depend on (the tokenizer file's bytes, the EOS id).
  virtual std::string fingerprint() const = 0;
};

// The tokenizer.json `tokenizer` names (that file, or a folder holding one), its documents encoded
// as `Tokenizer.encode(document)` does (with the post-processor's special tokens, a BOS where the
// tokenizer adds one). `eos` >= 0 is the EOS id; -1 looks it up beside the tokenizer.json:
// tokenizer_config.json's "eos_token", else config.json's or generation_config.json's
// "eos_token_id" (the first of a list). DataError naming the file when the tokenizer cannot be
// read or has no EOS.
std::unique_ptr<DocumentEncoder> tokenizer_encoder(const std::string& tokenizer, int64_t eos);

// Each byte is an id; the EOS is `eos`, or a line break (10) for -1.
std::unique_ptr<DocumentEncoder> byte_encoder(int64_t eos);

// The tokenizer.json that data.tokenizer names: the path itself or `path`/tokenizer.json.
std::string tokenizer_file(const std::string& path);

}  // namespace moe::data
