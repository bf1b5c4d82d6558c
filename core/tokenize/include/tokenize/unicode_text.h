#pragma once
// The Unicode facts the tokenizers ask about single characters and whole strings, from ICU so
// they follow the Unicode tables rather than hand-written ranges. Each says which Rust predicate
// of `tokenizers` it stands for.
#include <string>
#include <string_view>

namespace moe::tokenize {

// char::is_whitespace: the White_Space property.
bool is_whitespace(char32_t cp);
// char::is_numeric: general categories Nd, Nl, No.
bool is_numeric(char32_t cp);
// The regex crate's Unicode \w (added tokens' single_word): Alphabetic, marks, Nd, Pc,
// Join_Control.
bool is_word_character(char32_t cp);
// unicode-normalization's is_combining_mark (StripAccents): general category M (Mn, Mc, Me).
bool is_mark(char32_t cp);

// char::to_lowercase on each character (full mappings, no context: no final sigma).
std::string to_lowercase(std::string_view text);

enum class NormalForm { kNfc, kNfd, kNfkc, kNfkd };
std::string normalize(std::string_view text, NormalForm form);

}  // namespace moe::tokenize
