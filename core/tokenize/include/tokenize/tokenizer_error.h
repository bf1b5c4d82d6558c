#pragma once
// What is wrong with a tokenizer.json or with what is given to a tokenizer: a component type
// this library does not implement, a missing or malformed field, an unreadable file, an id that
// is not in the vocabulary. The message names the file or the JSON path (e.g.
// "pre_tokenizer.pretokenizers[1].type"), so a user knows what to change; moe-train maps it to
// exit status 2 (bad input). Never thrown for a tokenizer's ordinary work on valid input.
#include <stdexcept>
#include <string>

namespace moe::tokenize {

struct TokenizerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace moe::tokenize
