#pragma once
// tokenizer.json's "normalizer": rewrites each piece of text that is not an added token, before
// pre-tokenization. Supported: NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Replace,
// Prepend, ByteLevel, Sequence; anything else is refused by name.
#include <memory>
#include <string>

#include "tokenize/json_fields.h"

namespace moe::tokenize {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  virtual void normalize(std::string& text) const = 0;
};

// nullptr for a null "normalizer"; TokenizerError naming `path` for what is not supported.
std::unique_ptr<Normalizer> make_normalizer(const Json& spec, const std::string& path);

}  // namespace moe::tokenize
