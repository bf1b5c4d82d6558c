#pragma once
// Oniguruma (what `tokenizers` uses) and PCRE2 agree on \p{..}, lookarounds and (?i:..), but
// their Unicode shorthand classes differ: Oniguruma's \s is U+0009-000D, U+0085 and \p{Z} (PCRE2
// adds U+180E), its \w is letters, marks, decimal digits and connector punctuation (PCRE2: letters,
// numbers, underscore), and its \h is a hex digit (PCRE2: horizontal space). This rewrites those
// escapes into explicit classes with Oniguruma's meaning, and Oniguruma's \uHHHH (which PCRE2
// refuses) into \x{HHHH}.
#include <functional>
#include <string>

namespace moe::tokenize {

// `is_script(name)`: whether `name` is a Unicode script (PCRE2 is asked). Oniguruma's \p{Han}
// is the Script property, PCRE2's is Script_Extensions (which adds e.g. U+3001 to Han), so
// script names become \p{sc:Han}.
std::string oniguruma_to_pcre2(const std::string& pattern,
                               const std::function<bool(const std::string&)>& is_script);

// `text` as a pattern that matches exactly it.
std::string escape_literal(const std::string& text);

}  // namespace moe::tokenize
