#pragma once
// One stretch of the text on its way through a tokenizer: the added-token split cuts the text
// into pieces, the normalizer rewrites the other pieces, pre-tokenizers cut them further, and
// the model turns each into ids.
#include <cstdint>
#include <optional>
#include <string>

namespace moe::tokenize {

struct Piece {
  std::string text;
  // Whether the piece begins where the original text begins (`tokenizers`' offsets_original().0
  // == 0): Metaspace's prepend_scheme "first" adds its "▁" only there.
  bool at_text_start = false;
  // Set for an added token matched in the text: the piece is that token and is not cut further.
  std::optional<std::uint32_t> token;
};

}  // namespace moe::tokenize
