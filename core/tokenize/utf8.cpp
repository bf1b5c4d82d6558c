// UTF-8 validation and repair. The repair follows the W3C/Unicode "maximal subpart" rule: a lead
// byte and the continuation bytes that could still start a valid sequence are replaced together
// by one U+FFFD; the byte that breaks the sequence starts over.
#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// The valid range of the second byte after `lead` (later bytes are always 80..BF); false when
// `lead` cannot start a multi-byte sequence.
bool second_byte_range(unsigned char lead, unsigned char& lo, unsigned char& hi) {
  lo = 0x80;
  hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) return true;
  if (lead == 0xE0)
    lo = 0xA0;
  else if (lead == 0xED)
    hi = 0x9F;  // no surrogates
  else if (lead == 0xF0)
    lo = 0x90;  // no overlong 4-byte forms
  else if (lead == 0xF4)
    hi = 0x8F;  // nothing above U+10FFFF
  else if (!((lead >= 0xE1 && lead <= 0xEF) || (lead >= 0xF1 && lead <= 0xF3)))
    return false;
  return true;
}

// Length of the valid sequence at `pos`, or 0 with `consumed` the maximal invalid subpart.
std::size_t valid_sequence_at(std::string_view s, std::size_t pos, std::size_t& consumed) {
  const auto lead = static_cast<unsigned char>(s[pos]);
  if (lead < 0x80) return 1;
  unsigned char lo = 0, hi = 0;
  consumed = 1;
  if (!second_byte_range(lead, lo, hi)) return 0;
  const std::size_t need = utf8_length(lead);
  for (std::size_t k = 1; k < need; ++k) {
    if (pos + k >= s.size()) return 0;
    const auto b = static_cast<unsigned char>(s[pos + k]);
    if (b < lo || b > hi) return 0;
    consumed = k + 1;
    lo = 0x80;
    hi = 0xBF;
  }
  return need;
}

}  // namespace

std::size_t utf8_length(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

bool is_valid_utf8(std::string_view bytes) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    std::size_t consumed = 0;
    const std::size_t n = valid_sequence_at(bytes, pos, consumed);
    if (n == 0) return false;
    pos += n;
  }
  return true;
}

std::string to_valid_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + 16);
  for (std::size_t pos = 0; pos < bytes.size();) {
    std::size_t consumed = 0;
    const std::size_t n = valid_sequence_at(bytes, pos, consumed);
    if (n > 0) {
      out.append(bytes.substr(pos, n));
      pos += n;
    } else {
      out.append(kReplacement);
      pos += consumed;
    }
  }
  return out;
}

char32_t next_code_point(std::string_view text, std::size_t& pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  const std::size_t n = utf8_length(lead);
  char32_t cp = n == 1 ? lead : n == 2 ? (lead & 0x1F) : n == 3 ? (lead & 0x0F) : (lead & 0x07);
  for (std::size_t k = 1; k < n && pos + k < text.size(); ++k) {
    cp = (cp << 6) | (static_cast<unsigned char>(text[pos + k]) & 0x3F);
  }
  pos += n;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace moe::tokenize
