// Rewrites Oniguruma's Unicode shorthand classes for PCRE2 (see the header).
#include "tokenize/regex_translation.h"

#include <cctype>

namespace moe::tokenize {
namespace {

// The members of each class, written to go inside [...].
constexpr const char* kSpace = "\\t\\n\\x0B\\f\\r\\x{85}\\p{Z}";
constexpr const char* kWord = "\\p{L}\\p{M}\\p{Nd}\\p{Pc}";
constexpr const char* kHex = "0-9a-fA-F";

const char* class_members(char escape) {
  switch (escape) {
    case 's':
    case 'S':
      return kSpace;
    case 'w':
    case 'W':
      return kWord;
    case 'h':
    case 'H':
      return kHex;
    default:
      return nullptr;
  }
}

bool is_hex4(const std::string& s, std::size_t at) {
  for (std::size_t k = at; k < at + 4; ++k) {
    if (!std::isxdigit(static_cast<unsigned char>(s[k]))) return false;
  }
  return true;
}

// The general categories (and PCRE2's special names), which are not scripts.
bool is_category(const std::string& name) {
  static const char* const kNames[] = {"L",  "Lu", "Ll", "Lt",  "Lm",  "Lo",  "L&",  "LC",  "M",
                                       "Mn", "Mc", "Me", "N",   "Nd",  "Nl",  "No",  "P",   "Pc",
                                       "Pd", "Ps", "Pe", "Pi",  "Pf",  "Po",  "S",   "Sm",  "Sc",
                                       "Sk", "So", "Z",  "Zs",  "Zl",  "Zp",  "C",   "Cc",  "Cf",
                                       "Cs", "Co", "Cn", "Any", "Xan", "Xps", "Xsp", "Xwd", "Xuc"};
  for (const char* known : kNames) {
    if (name == known) return true;
  }
  return false;
}

}  // namespace

std::string oniguruma_to_pcre2(const std::string& pattern,
                               const std::function<bool(const std::string&)>& is_script) {
  std::string out;
  out.reserve(pattern.size() + 32);
  int class_depth = 0;  // Oniguruma allows nested classes: [a[b]]
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const char e = pattern[i + 1];
      const std::size_t close = pattern.find('}', i + 2);
      if ((e == 'p' || e == 'P') && i + 2 < pattern.size() && pattern[i + 2] == '{' &&
          close != std::string::npos) {
        std::string name = pattern.substr(i + 3, close - i - 3);
        const bool negated = !name.empty() && name[0] == '^';
        if (negated) name.erase(0, 1);
        out += c;
        out += e;
        out += negated ? "{^" : "{";
        if (!is_category(name) && is_script(name)) out += "sc:";
        out += name + "}";
        i = close;
        continue;
      }
      if (e == 'u' && i + 5 < pattern.size() && is_hex4(pattern, i + 2)) {
        out += "\\x{" + pattern.substr(i + 2, 4) + "}";  // Oniguruma's \uHHHH
        i += 5;
        continue;
      }
      const char* members = class_members(e);
      const bool negated = std::isupper(static_cast<unsigned char>(e)) != 0;
      if (members && class_depth == 0) {
        out += negated ? "[^" : "[";
        out += members;
        out += "]";
      } else if (members && !negated) {
        out += members;
      } else {
        // A negated shorthand inside a class cannot be spelled as members; PCRE2's own meaning
        // is kept (they differ only on U+180E and a few \w marks and numbers).
        out += c;
        out += e;
      }
      ++i;
      continue;
    }
    if (c == '[') {
      ++class_depth;
      out += c;
      // A ']' right after '[' or '[^' is a member, not the end.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out += pattern[++i];
      continue;
    }
    if (c == ']' && class_depth > 0) --class_depth;
    out += c;
  }
  return out;
}

std::string escape_literal(const std::string& text) {
  std::string out;
  out.reserve(text.size() * 2);
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && !std::isalnum(u)) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace moe::tokenize
