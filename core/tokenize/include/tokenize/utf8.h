#pragma once
// UTF-8 as the tokenizers need it: input bytes made valid the way Python's
// bytes.decode("utf-8", errors="replace") does (what a user's file becomes before the reference
// sees it), and code point iteration over strings known to be valid.
#include <cstddef>
#include <string>
#include <string_view>

namespace moe::tokenize {

// Valid UTF-8: every maximal invalid subpart (Unicode's "best practice", which Python and Rust's
// from_utf8_lossy both follow) becomes one U+FFFD; valid input comes back unchanged.
std::string to_valid_utf8(std::string_view bytes);

// Whether `bytes` is valid UTF-8 (no surrogates, no overlong forms, at most U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

// The code point at `pos` of valid UTF-8 `text`; `pos` moves past it.
char32_t next_code_point(std::string_view text, std::size_t& pos);

// Byte length of the UTF-8 sequence that starts with `lead` (1 for a continuation byte).
std::size_t utf8_length(unsigned char lead);

void append_utf8(std::string& out, char32_t cp);

}  // namespace moe::tokenize
