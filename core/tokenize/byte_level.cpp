// GPT-2's bytes_to_unicode table (byte_level.h).
#include "tokenize/byte_level.h"

#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

// Code point for each byte: '!'..'~', '¡'..'¬' and '®'..'ÿ' stand for themselves; the other 68
// bytes take U+0100, U+0101, ... in byte order.
std::array<char32_t, 256> make_code_points() {
  std::array<char32_t, 256> table{};
  char32_t next = 0x100;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
    table[b] = printable ? static_cast<char32_t>(b) : next++;
  }
  return table;
}

const std::array<char32_t, 256>& code_points() {
  static const auto table = make_code_points();
  return table;
}

}  // namespace

const char* const kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

const std::array<std::string, 256>& byte_level_chars() {
  static const auto chars = [] {
    std::array<std::string, 256> out;
    for (int b = 0; b < 256; ++b) append_utf8(out[b], code_points()[b]);
    return out;
  }();
  return chars;
}

std::optional<std::uint8_t> byte_level_byte(char32_t cp) {
  // The alphabet is below U+0144: a direct table.
  static const auto reverse = [] {
    std::array<int, 0x144> table;
    table.fill(-1);
    for (int b = 0; b < 256; ++b) table[code_points()[b]] = b;
    return table;
  }();
  if (cp >= reverse.size() || reverse[cp] < 0) return std::nullopt;
  return static_cast<std::uint8_t>(reverse[cp]);
}

std::string to_byte_level(std::string_view bytes) {
  const auto& chars = byte_level_chars();
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) out += chars[static_cast<unsigned char>(c)];
  return out;
}

}  // namespace moe::tokenize
