// Split's behaviors and invert, against `tokenizers`' pre_tokenize_str of "-a-b--c-" with the
// pattern "-+".
#include <gtest/gtest.h>

#include "tokenize/regex.h"
#include "tokenize/split_behavior.h"

namespace moe::tokenize {
namespace {

std::vector<std::string> split_with(SplitBehavior behavior, bool invert) {
  const Regex dashes("-+", "test");
  auto spans = dashes.find_matches("-a-b--c-");
  if (invert) {
    for (Span& s : spans) s.is_match = !s.is_match;
  }
  std::vector<Piece> out;
  split_piece(Piece{"-a-b--c-", true, std::nullopt}, spans, behavior, out);
  std::vector<std::string> texts;
  for (const Piece& p : out) texts.push_back(p.text);
  return texts;
}

using V = std::vector<std::string>;

TEST(SplitBehavior, EachBehaviorAsTokenizers) {
  EXPECT_EQ(split_with(SplitBehavior::kRemoved, false), (V{"a", "b", "c"}));
  EXPECT_EQ(split_with(SplitBehavior::kRemoved, true), (V{"-", "-", "--", "-"}));
  EXPECT_EQ(split_with(SplitBehavior::kIsolated, false), (V{"-", "a", "-", "b", "--", "c", "-"}));
  EXPECT_EQ(split_with(SplitBehavior::kMergedWithPrevious, false), (V{"-", "a-", "b--", "c-"}));
  EXPECT_EQ(split_with(SplitBehavior::kMergedWithPrevious, true), (V{"-a", "-b", "--c", "-"}));
  EXPECT_EQ(split_with(SplitBehavior::kMergedWithNext, false), (V{"-a", "-b", "--c", "-"}));
  EXPECT_EQ(split_with(SplitBehavior::kMergedWithNext, true), (V{"-", "a-", "b--", "c-"}));
  EXPECT_EQ(split_with(SplitBehavior::kContiguous, false), (V{"-", "a", "-", "b", "--", "c", "-"}));
}

TEST(SplitBehavior, OnlyTheFirstPartKeepsTheTextStart) {
  const Regex dashes("-+", "test");
  std::vector<Piece> out;
  split_piece(Piece{"a-b", true, std::nullopt}, dashes.find_matches("a-b"),
              SplitBehavior::kIsolated, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].at_text_start);
  EXPECT_FALSE(out[1].at_text_start);
  EXPECT_FALSE(out[2].at_text_start);
}

}  // namespace
}  // namespace moe::tokenize
