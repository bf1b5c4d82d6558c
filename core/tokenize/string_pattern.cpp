// String and Regex patterns (string_pattern.h).
#include "tokenize/string_pattern.h"

namespace moe::tokenize {

Regex make_pattern(const Json& pattern, const std::string& path) {
  if (pattern.is_object() && pattern.size() == 1) {
    if (pattern.contains("String") && pattern["String"].is_string()) {
      return Regex::literal(pattern["String"].get<std::string>(), path + ".String");
    }
    if (pattern.contains("Regex") && pattern["Regex"].is_string()) {
      return Regex(pattern["Regex"].get<std::string>(), path + ".Regex");
    }
  }
  refuse(path, "expected {\"String\": ...} or {\"Regex\": ...}");
}

std::string replace_all(const Regex& pattern, const std::string& text, const std::string& content) {
  std::string out;
  out.reserve(text.size());
  for (const Span& span : pattern.find_matches(text)) {
    if (span.is_match) {
      out += content;
    } else {
      out.append(text, span.start, span.end - span.start);
    }
  }
  return out;
}

}  // namespace moe::tokenize
