// A Metaspace BPE with byte fallback, fused unk, added tokens (lstrip/rstrip, single_word) and a
// BOS template, written by hand; the expected ids and texts are `tokenizers` 0.23.3's for the
// same tokenizer.json. And what is refused, by JSON path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tokenize/tokenizer.h"
#include "tokenize/tokenizer_error.h"

namespace moe::tokenize {
namespace {

const char* const kMetaspaceJson =
    R"json({"version": "1.0", "truncation": null, "padding": null, "added_tokens": [{"id": 0, "content": "<unk>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}, {"id": 1, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}, {"id": 12, "content": "<t>", "single_word": false, "lstrip": true, "rstrip": true, "normalized": false, "special": false}, {"id": 13, "content": "cat", "single_word": true, "lstrip": false, "rstrip": false, "normalized": true, "special": false}], "normalizer": null, "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true}, "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}], "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}, "decoder": {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true}]}, "model": {"type": "BPE", "dropout": null, "unk_token": "<unk>", "continuing_subword_prefix": null, "end_of_word_suffix": null, "fuse_unk": true, "byte_fallback": true, "ignore_merges": false, "vocab": {"<unk>": 0, "<s>": 1, "▁": 2, "a": 3, "b": 4, "▁a": 5, "ab": 6, "▁ab": 7, "<0xC3>": 8, "<0xA9>": 9, "c": 10, "t": 11}, "merges": ["▁ a", "a b", "▁a b"]}})json";

using Ids = std::vector<std::uint32_t>;

Tokenizer metaspace() {
  return Tokenizer::from_json(kMetaspaceJson, "test.json");
}

TEST(Tokenizer, MetaspaceBpeEncodesAsTokenizers) {
  const Tokenizer tok = metaspace();
  EXPECT_EQ(tok.encode("ab ab"), (Ids{1, 7, 7}));
  EXPECT_EQ(tok.encode("aab"), (Ids{1, 5, 6}));
  EXPECT_EQ(tok.encode("\xC3\xA9"), (Ids{1, 2, 8, 9}));            // é through its <0xNN> bytes
  EXPECT_EQ(tok.encode("ab<t>  ab"), (Ids{1, 7, 12, 6}));          // <t> takes the spaces after it
  EXPECT_EQ(tok.encode("a cat b"), (Ids{1, 5, 2, 13, 2, 4}));      // "cat" as a word of its own
  EXPECT_EQ(tok.encode("concat"), (Ids{1, 2, 10, 0, 10, 3, 11}));  // but not inside one
  EXPECT_EQ(tok.encode("xyz"), (Ids{1, 2, 0}));    // unknown characters fused into one <unk>
  EXPECT_EQ(tok.encode("<s>ab"), (Ids{1, 1, 6}));  // no "▁" after a leading added token
  EXPECT_EQ(tok.encode("ab ab", false), (Ids{7, 7}));
}

TEST(Tokenizer, DecodeSkipsSpecialTokensByDefault) {
  const Tokenizer tok = metaspace();
  EXPECT_EQ(tok.decode({1, 7, 7}), "ab ab");
  EXPECT_EQ(tok.decode({1, 7, 7}, false), "<s> ab ab");
  EXPECT_EQ(tok.decode({1, 2, 8, 9}), "\xC3\xA9");
  EXPECT_EQ(tok.decode({1, 7, 12, 6}), "ab<t>ab");
  EXPECT_EQ(tok.decode({1, 2, 10, 0, 10, 3, 11}), "ccat");
  EXPECT_EQ(tok.decode({1, 2, 10, 0, 10, 3, 11}, false), "<s> c<unk>cat");
  EXPECT_THROW(tok.decode({99}), TokenizerError);
}

TEST(Tokenizer, InvalidUtf8IsReplacedBeforeEncoding) {
  const Tokenizer tok = metaspace();
  // U+FFFD is not in the vocabulary: its three bytes have no <0xNN> tokens, so it is <unk>.
  EXPECT_EQ(tok.encode("a\xFF"), tok.encode("a\xEF\xBF\xBD"));
}

// The error of loading `json`, or "" when it loads.
std::string load_error(const std::string& json) {
  try {
    Tokenizer::from_json(json, "t.json");
  } catch (const TokenizerError& e) {
    return e.what();
  }
  return "";
}

// The hand-written tokenizer.json with `key` set to `value` (JSON).
std::string with(const std::string& key, const std::string& value) {
  nlohmann::json json = nlohmann::json::parse(kMetaspaceJson);
  json[key] = nlohmann::json::parse(value);
  return json.dump();
}

TEST(Tokenizer, UnsupportedComponentsAreRefusedByPath) {
  EXPECT_EQ(load_error(kMetaspaceJson), "");
  EXPECT_NE(load_error(with("pre_tokenizer", R"({"type": "BertPreTokenizer"})"))
                .find("t.json: pre_tokenizer.type: \"BertPreTokenizer\" is not supported"),
            std::string::npos);
  EXPECT_NE(load_error(with("normalizer",
                            R"({"type": "Sequence", "normalizers": [{"type": "NFC"},
                                {"type": "Precompiled", "precompiled_charsmap": ""}]})"))
                .find("normalizer.normalizers[1].type: \"Precompiled\""),
            std::string::npos);
  EXPECT_NE(load_error(with("truncation", R"({"max_length": 8})")).find("truncation"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"model": {"type": "WordPiece", "vocab": {}}})")
                .find("model.type: \"WordPiece\" is not supported"),
            std::string::npos);
  EXPECT_NE(load_error("{not json").find("t.json: not valid JSON"), std::string::npos);
}

TEST(Tokenizer, MergesOutsideTheVocabularyAreRefused) {
  std::string json = kMetaspaceJson;
  json.replace(json.find("\"a b\""), 5, "\"a q\"");
  EXPECT_NE(load_error(json).find("model.merges[1]: \"q\" is not in the vocabulary"),
            std::string::npos);
}

TEST(Tokenizer, BpeMergesLowestRankFirstAndLeftmostOnTies) {
  const std::string json = R"({"model": {"type": "BPE", "vocab": {"a": 0, "aa": 1, "b": 2,
      "ab": 3, "aab": 4}, "merges": [["a", "b"], ["a", "a"], ["a", "ab"]]}})";
  const Tokenizer tok = Tokenizer::from_json(json, "t.json");
  EXPECT_EQ(tok.encode("aaa"), (Ids{1, 0}));  // leftmost "a a" first
  EXPECT_EQ(tok.encode("aab"), (Ids{4}));     // "a b" (rank 0) before "a a", then "a ab"
  EXPECT_EQ(tok.decode({1, 0}), "aa a");      // no decoder: tokens joined with spaces
}

}  // namespace
}  // namespace moe::tokenize
