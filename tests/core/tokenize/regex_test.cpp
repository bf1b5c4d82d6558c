// tokenizer.json's patterns under PCRE2 with Oniguruma's meaning of \s, \w, \h, \uHHHH and
// script names; the expected pieces are those of `tokenizers` 0.23.3 for the same input.
#include <gtest/gtest.h>

#include "tokenize/byte_level.h"
#include "tokenize/regex.h"
#include "tokenize/regex_translation.h"
#include "tokenize/tokenizer_error.h"

namespace moe::tokenize {
namespace {

std::vector<std::string> matched(const Regex& regex, const std::string& text) {
  std::vector<std::string> out;
  for (const Span& s : regex.find_matches(text)) {
    out.push_back((s.is_match ? "+" : "-") + text.substr(s.start, s.end - s.start));
  }
  return out;
}

TEST(RegexTranslation, ShorthandClassesBecomeOnigurumasClasses) {
  const auto never_script = [](const std::string&) { return false; };
  EXPECT_EQ(oniguruma_to_pcre2(R"(\s+)", never_script), R"([\t\n\x0B\f\r\x{85}\p{Z}]+)");
  EXPECT_EQ(oniguruma_to_pcre2(R"([^\s\p{L}])", never_script),
            R"([^\t\n\x0B\f\r\x{85}\p{Z}\p{L}])");
  EXPECT_EQ(oniguruma_to_pcre2(R"(\W)", never_script), R"([^\p{L}\p{M}\p{Nd}\p{Pc}])");
  EXPECT_EQ(oniguruma_to_pcre2(R"([\u3040-\u309F])", never_script), R"([\x{3040}-\x{309F}])");
  EXPECT_EQ(oniguruma_to_pcre2(R"(\p{Han}\P{^Greek}\p{L})",
                               [](const std::string& n) { return n != "L"; }),
            R"(\p{sc:Han}\P{^sc:Greek}\p{L})");
}

TEST(Regex, Gpt2PatternCutsAsTokenizersDoes) {
  const Regex gpt2(kGpt2Pattern, "test");
  // U+180E is not \s in Oniguruma (it is in PCRE2); U+00A0 is.
  EXPECT_EQ(matched(gpt2, "Hello  world\u180E x\u00A0y  "),
            (std::vector<std::string>{"+Hello", "+ ", "+ world", "+\u180E", "+ x", "+\u00A0", "+y",
                                      "+  "}));
  EXPECT_EQ(matched(gpt2, "I'm DON'T"),
            (std::vector<std::string>{"+I", "+'m", "+ DON", "+'", "+T"}));
}

TEST(Regex, GapsBetweenMatchesAreKept) {
  const Regex digits(R"(\p{N}{1,3})", "test");
  EXPECT_EQ(matched(digits, "ab12345c"), (std::vector<std::string>{"-ab", "+123", "+45", "-c"}));
  EXPECT_EQ(matched(digits, ""), (std::vector<std::string>{"-"}));
}

TEST(Regex, CaseInsensitiveGroupFoldsUnicode) {
  const Regex contraction("(?i:'s|'t)", "test");
  EXPECT_EQ(matched(contraction, "'S'\u017F"), (std::vector<std::string>{"+'S", "+'\u017F"}));
}

TEST(Regex, LiteralPatternsMatchTheirText) {
  const Regex dot = Regex::literal(".*", "test");
  EXPECT_EQ(matched(dot, "a.*b"), (std::vector<std::string>{"-a", "+.*", "-b"}));
}

TEST(Regex, BadPatternNamesItsPath) {
  try {
    Regex("(unclosed", "pre_tokenizer.pattern.Regex");
    FAIL() << "no error";
  } catch (const TokenizerError& e) {
    EXPECT_NE(std::string(e.what()).find("pre_tokenizer.pattern.Regex"), std::string::npos);
  }
}

}  // namespace
}  // namespace moe::tokenize
