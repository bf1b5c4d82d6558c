// Invalid UTF-8 replaced as Python's bytes.decode("utf-8", errors="replace") does (the expected
// strings are Python's output for the same bytes).
#include <gtest/gtest.h>

#include "tokenize/utf8.h"

namespace moe::tokenize {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(Utf8, ValidTextIsUnchanged) {
  const std::string text = "h\xC3\xA9llo \xE6\x97\xA5 \xF0\x9F\x91\x8D";
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_EQ(to_valid_utf8(text), text);
}

TEST(Utf8, EachMaximalInvalidSubpartIsOneReplacement) {
  EXPECT_EQ(to_valid_utf8("\xC3("), kFffd + "(");
  EXPECT_EQ(to_valid_utf8("\xE2\x82"), kFffd);                      // truncated 3-byte
  EXPECT_EQ(to_valid_utf8("\xF0\x9F\x98x"), kFffd + "x");           // truncated 4-byte
  EXPECT_EQ(to_valid_utf8("\xED\xA0\x80"), kFffd + kFffd + kFffd);  // a surrogate
  EXPECT_EQ(to_valid_utf8("\xC0\xAF"), kFffd + kFffd);              // overlong
  EXPECT_EQ(to_valid_utf8("\xE0\x80\xAF"), kFffd + kFffd + kFffd);
  EXPECT_EQ(to_valid_utf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // > U+10FFFF
  EXPECT_EQ(to_valid_utf8("\xF5"), kFffd);
  EXPECT_EQ(to_valid_utf8("a\xE6\x97\xA5\xE6\x9C"), "a\xE6\x97\xA5" + kFffd);
}

TEST(Utf8, CodePointsRoundTrip) {
  for (const char32_t cp : {U'A', U'\u00E9', U'\u65E5', U'\U0001F44D', U'\U0010FFFF'}) {
    std::string s;
    append_utf8(s, cp);
    std::size_t pos = 0;
    EXPECT_EQ(next_code_point(s, pos), cp);
    EXPECT_EQ(pos, s.size());
  }
}

}  // namespace
}  // namespace moe::tokenize
