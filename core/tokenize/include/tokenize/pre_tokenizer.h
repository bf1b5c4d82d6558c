#pragma once
// tokenizer.json's "pre_tokenizer": cuts the normalized pieces into words for the model (and may
// rewrite them: ByteLevel maps bytes to its alphabet, Metaspace spaces to "▁"). Pieces that are
// added tokens are left alone. Supported: ByteLevel, Split, Digits, Metaspace, WhitespaceSplit,
// Sequence; anything else is refused by name.
#include <memory>
#include <string>
#include <vector>

#include "tokenize/json_fields.h"
#include "tokenize/piece.h"

namespace moe::tokenize {

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  virtual void pre_tokenize(std::vector<Piece>& pieces) const = 0;
};

// nullptr for a null "pre_tokenizer"; TokenizerError naming `path` for what is not supported.
std::unique_ptr<PreTokenizer> make_pre_tokenizer(const Json& spec, const std::string& path);

}  // namespace moe::tokenize
