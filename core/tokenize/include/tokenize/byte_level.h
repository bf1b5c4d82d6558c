#pragma once
// GPT-2's byte-level alphabet: every byte stands for one printable character (printable Latin-1
// bytes for themselves, the others for U+0100 onwards), so any text, valid UTF-8 or not,
// becomes a string of vocabulary characters, and decoding maps them back to bytes.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace moe::tokenize {

// The character (as UTF-8) that stands for each byte.
const std::array<std::string, 256>& byte_level_chars();
// The byte a character stands for, or nothing for a character outside the alphabet.
std::optional<std::uint8_t> byte_level_byte(char32_t cp);
// Each byte of `bytes` as its character.
std::string to_byte_level(std::string_view bytes);

// GPT-2's pre-tokenization pattern, which ByteLevel's use_regex applies.
extern const char* const kGpt2Pattern;

}  // namespace moe::tokenize
