#pragma once
// Helpers of the token cache and corpus tests: a hand-written Metaspace BPE tokenizer.json (the
// one of tests/core/tokenize/tokenizer_test.cpp, whose ids are the `tokenizers` package's),
// corpus files, and a decoder config over them.
#include <fstream>
#include <string>
#include <vector>

#include "data/token_cache.h"
#include "data_test_util.h"

namespace moe::data::test {

// "ab ab" -> [1, 7, 7], "aab" -> [1, 5, 6], "" -> [1]: <s> (1) starts every encoding.
inline const char* const kTinyTokenizerJson =
    R"json({"version": "1.0", "truncation": null, "padding": null, "added_tokens": [{"id": 0, "content": "<unk>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}, {"id": 1, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}, {"id": 10, "content": "</s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}], "normalizer": null, "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true}, "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}], "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}, "decoder": null, "model": {"type": "BPE", "dropout": null, "unk_token": "<unk>", "continuing_subword_prefix": null, "end_of_word_suffix": null, "fuse_unk": true, "byte_fallback": false, "ignore_merges": false, "vocab": {"<unk>": 0, "<s>": 1, "▁": 2, "a": 3, "b": 4, "▁a": 5, "ab": 6, "▁ab": 7, "c": 8, "t": 9}, "merges": ["▁ a", "a b", "▁a b"]}})json";

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// A folder with tokenizer.json and a tokenizer_config.json naming "</s>" (10) as the EOS.
inline std::string write_tokenizer_folder(const std::string& dir) {
  std::filesystem::create_directories(dir);
  write_text(dir + "/tokenizer.json", kTinyTokenizerJson);
  write_text(dir + "/tokenizer_config.json", R"({"eos_token": {"content": "</s>"}})");
  return dir;
}

// JSON Lines with one {"text": doc} per document.
inline std::string jsonl(const std::vector<std::string>& docs) {
  std::string out;
  for (const auto& d : docs) out += nlohmann::json{{"text", d}, {"id", 7}}.dump() + "\n";
  return out;
}

// A decoder config reading `path` as `kind` with `tokenizer`, vocabulary 64, windows of 4 + 1.
inline protocol::RunConfig corpus_config(const std::string& kind, const std::string& path,
                                         const std::string& tokenizer) {
  protocol::RunConfig c = config("decoder", kind, path);
  c.data.tokenizer = tokenizer;
  c.data.val_fraction = 0;
  c.model.vocab = 64;
  c.model.seq_len = 4;
  return c;
}

// Every token of a cache.
inline std::vector<int64_t> all_tokens(const TokenCache& cache) {
  std::vector<int64_t> out(static_cast<size_t>(cache.size()));
  cache.copy(0, cache.size(), out.data());
  return out;
}

// A scratch folder with the tokenizer folder "tok" and "docs.jsonl" holding "ab ab", "" and "aab".
class CorpusTest : public DataTest {
 protected:
  void SetUp() override {
    DataTest::SetUp();
    write_tokenizer_folder(path("tok"));
    write_text(path("docs.jsonl"), jsonl({"ab ab", "", "aab"}));
  }
};

}  // namespace moe::data::test
