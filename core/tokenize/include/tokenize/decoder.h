#pragma once
// tokenizer.json's "decoder": turns the tokens of a list of ids back into text. Each decoder
// maps the list of token strings to a new list (`tokenizers`' decode_chain); the results are
// joined. Supported: ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip, Sequence;
// anything else is refused by name.
#include <memory>
#include <string>
#include <vector>

#include "tokenize/json_fields.h"

namespace moe::tokenize {

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual std::vector<std::string> decode_chain(std::vector<std::string> tokens) const = 0;
};

// nullptr for a null "decoder" (tokens are then joined with spaces).
std::unique_ptr<Decoder> make_decoder(const Json& spec, const std::string& path);

}  // namespace moe::tokenize
