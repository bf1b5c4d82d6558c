// ICU behind unicode_text.h.
#include "tokenize/unicode_text.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

#include "tokenize/tokenizer_error.h"
#include "tokenize/utf8.h"

namespace moe::tokenize {

bool is_whitespace(char32_t cp) {
  return u_isUWhiteSpace(static_cast<UChar32>(cp)) != 0;
}

bool is_numeric(char32_t cp) {
  const auto type = u_charType(static_cast<UChar32>(cp));
  return type == U_DECIMAL_DIGIT_NUMBER || type == U_LETTER_NUMBER || type == U_OTHER_NUMBER;
}

bool is_word_character(char32_t cp) {
  const auto c = static_cast<UChar32>(cp);
  if (u_hasBinaryProperty(c, UCHAR_ALPHABETIC) || u_hasBinaryProperty(c, UCHAR_JOIN_CONTROL)) {
    return true;
  }
  const auto type = u_charType(c);
  return type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK ||
         type == U_COMBINING_SPACING_MARK || type == U_DECIMAL_DIGIT_NUMBER ||
         type == U_CONNECTOR_PUNCTUATION;
}

bool is_mark(char32_t cp) {
  const auto type = u_charType(static_cast<UChar32>(cp));
  return type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK || type == U_ENCLOSING_MARK;
}

std::string to_lowercase(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t begin = pos;
    const char32_t cp = next_code_point(text, pos);
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp));
      continue;
    }
    // One character at a time: ICU's full lowercasing without the context Rust does not use.
    UChar source[2];
    int32_t source_len = 0;
    U16_APPEND_UNSAFE(source, source_len, static_cast<UChar32>(cp));
    UChar lowered[8];
    UErrorCode status = U_ZERO_ERROR;
    const int32_t n = u_strToLower(lowered, 8, source, source_len, "", &status);
    if (U_FAILURE(status)) {
      out.append(text.substr(begin, pos - begin));
      continue;
    }
    for (int32_t i = 0; i < n;) {
      UChar32 c;
      U16_NEXT(lowered, i, n, c);
      append_utf8(out, static_cast<char32_t>(c));
    }
  }
  return out;
}

std::string normalize(std::string_view text, NormalForm form) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = nullptr;
  switch (form) {
    case NormalForm::kNfc:
      normalizer = icu::Normalizer2::getNFCInstance(status);
      break;
    case NormalForm::kNfd:
      normalizer = icu::Normalizer2::getNFDInstance(status);
      break;
    case NormalForm::kNfkc:
      normalizer = icu::Normalizer2::getNFKCInstance(status);
      break;
    case NormalForm::kNfkd:
      normalizer = icu::Normalizer2::getNFKDInstance(status);
      break;
  }
  if (U_FAILURE(status)) throw TokenizerError("ICU has no Unicode normalization data");
  const auto source = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  // Already normalized text (most of it) is returned without a copy through UTF-16.
  if (normalizer->isNormalized(source, status) && U_SUCCESS(status)) return std::string(text);
  status = U_ZERO_ERROR;
  const icu::UnicodeString result = normalizer->normalize(source, status);
  if (U_FAILURE(status)) throw TokenizerError("Unicode normalization failed");
  std::string out;
  result.toUTF8String(out);
  return out;
}

}  // namespace moe::tokenize
