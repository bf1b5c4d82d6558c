// The token cache: written beside the data with each document's ids and its EOS, reused while
// source and tokenizer are unchanged, rebuilt when either changes, refused by name when damaged.
#include <sys/stat.h>

#include <filesystem>

#include "corpus_test_util.h"
#include "data/document_encoder.h"
#include "data/token_cache_builder.h"

namespace moe::data::test {
namespace {

using Ids = std::vector<int64_t>;

class TokenCacheTest : public CorpusTest {
 protected:
  TokenCacheRequest request(const std::string& data = "docs.jsonl") const {
    TokenCacheRequest r;
    r.path = path(data);
    r.text_field = "text";
    r.vocab = 64;
    return r;
  }

  // Opens (or builds) the cache; *reused tells which.
  std::shared_ptr<const TokenCache> open(const TokenCacheRequest& r, const DocumentEncoder& enc,
                                         bool* reused = nullptr) {
    bool done = false;
    auto cache = open_token_cache(r, enc, [&](const CacheProgress& p) {
      EXPECT_FALSE(done) << "progress after the end";
      if (p.done) {
        done = true;
        if (reused) *reused = p.reused;
      }
    });
    EXPECT_TRUE(done);
    return cache;
  }
};

TEST_F(TokenCacheTest, WritesEachDocumentsIdsAndEosBesideTheData) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  EXPECT_EQ(encoder->eos(), 10u);  // tokenizer_config.json's "</s>"
  bool reused = true;
  const auto cache = open(request(), *encoder, &reused);
  EXPECT_FALSE(reused);
  EXPECT_EQ(all_tokens(*cache), (Ids{1, 7, 7, 10, 1, 10, 1, 5, 6, 10}));
  EXPECT_EQ(cache->info().documents, 3);
  EXPECT_EQ(cache->document_end(0), 4);
  EXPECT_EQ(cache->document_end(1), 6);
  EXPECT_EQ(cache->document_end(2), 10);
  EXPECT_EQ(cache->info().token_bytes, 2);  // vocab <= 65536: uint16
  EXPECT_EQ(cache->info().max_id, 10);
  EXPECT_EQ(std::filesystem::path(cache->path()).parent_path(), path("docs.jsonl.moe-tokens"));
  // Nothing but the cache and its lock is left beside it (the temporary file was renamed).
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(path("docs.jsonl.moe-tokens"))) {
    EXPECT_TRUE(e.path().extension() == ".tokens" || e.path().extension() == ".lock") << e.path();
    ++files;
  }
  EXPECT_EQ(files, 2);
}

TEST_F(TokenCacheTest, AKilledBuildsTemporaryFileIsRemovedByTheNext) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  const std::string cache = token_cache_path(request(), *encoder);
  std::filesystem::create_directories(std::filesystem::path(cache).parent_path());
  write_text(cache + ".tmp-99999", "half a cache");
  open(request(), *encoder);
  EXPECT_FALSE(std::filesystem::exists(cache + ".tmp-99999"));
  EXPECT_TRUE(std::filesystem::exists(cache));
}

TEST_F(TokenCacheTest, ReusedWhileSourceAndTokenizerAreUnchanged) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  const std::string first = open(request(), *encoder)->path();
  struct stat before {};
  ASSERT_EQ(::stat(first.c_str(), &before), 0);
  bool reused = false;
  const auto again = open(request(), *encoder, &reused);
  EXPECT_TRUE(reused);
  struct stat after {};
  ASSERT_EQ(::stat(first.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);  // the same file, not rewritten
  EXPECT_EQ(all_tokens(*again), (Ids{1, 7, 7, 10, 1, 10, 1, 5, 6, 10}));
}

TEST_F(TokenCacheTest, RebuiltWhenTheSourceChanges) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  open(request(), *encoder);
  // Same size, other content: the fingerprint reads the file's first and last 64 KiB.
  write_text(path("docs.jsonl"), jsonl({"ab ab", "", "aba"}));
  bool reused = true;
  const auto cache = open(request(), *encoder, &reused);
  EXPECT_FALSE(reused);
  EXPECT_EQ(all_tokens(*cache), (Ids{1, 7, 7, 10, 1, 10, 1, 7, 3, 10}));
}

TEST_F(TokenCacheTest, ATokenizerChangeGetsItsOwnCache) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  const std::string first = open(request(), *encoder)->path();
  const auto other_eos = tokenizer_encoder(path("tok"), 0);  // data.eos_token 0
  bool reused = true;
  const auto cache = open(request(), *other_eos, &reused);
  EXPECT_FALSE(reused);
  EXPECT_NE(cache->path(), first);
  EXPECT_EQ(all_tokens(*cache), (Ids{1, 7, 7, 0, 1, 0, 1, 5, 6, 0}));
  // An edited tokenizer.json (a merge less) is another tokenizer too.
  nlohmann::json edited = nlohmann::json::parse(kTinyTokenizerJson);
  edited["model"]["merges"].erase(2);
  write_text(path("tok/tokenizer.json"), edited.dump());
  const auto changed = tokenizer_encoder(path("tok"), -1);
  const auto rebuilt = open(request(), *changed, &reused);
  EXPECT_FALSE(reused);
  EXPECT_NE(rebuilt->path(), first);
  EXPECT_EQ(all_tokens(*rebuilt), (Ids{1, 5, 4, 5, 4, 10, 1, 10, 1, 5, 6, 10}));
}

TEST_F(TokenCacheTest, DamagedCachesAreRefusedByName) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  const std::string cache = open(request(), *encoder)->path();
  const Bytes whole = read_file(cache);
  // Truncated: the header's counts promise more than the file has.
  write_file(cache, Bytes(whole.begin(), whole.end() - 3));
  expect_data_error([&] { open(request(), *encoder); }, {cache, "truncated"});
  // A header that is not JSON.
  Bytes garbled = whole;
  garbled[20] = '#';
  write_file(cache, garbled);
  expect_data_error([&] { open(request(), *encoder); }, {cache, "header"});
  // Document ends out of order (the last 8 bytes are the last document's end).
  Bytes disordered = whole;
  disordered[disordered.size() - 8] = 2;
  write_file(cache, disordered);
  expect_data_error([&] { open(request(), *encoder); }, {cache, "document 2"});
}

TEST_F(TokenCacheTest, IdsAtOrAboveTheVocabularyAreAnErrorNamingTheFile) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  TokenCacheRequest small = request();
  small.vocab = 8;  // "ab ab" has id 7, the EOS is 10
  expect_data_error([&] { open(small, *encoder); },
                    {path("docs.jsonl"), "token id 10", "model.vocab is 8"});
  open(request(), *encoder);  // built for vocabulary 64, then reused with 8
  expect_data_error([&] { open(small, *encoder); },
                    {path("docs.jsonl"), "token id 10", "model.vocab is 8"});
}

TEST_F(TokenCacheTest, CacheDirAndUnwritablePlaces) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  TokenCacheRequest elsewhere = request();
  elsewhere.cache_dir = path("caches");
  const auto cache = open(elsewhere, *encoder);
  EXPECT_EQ(std::filesystem::path(cache->path()).parent_path().parent_path(), path("caches"));
  EXPECT_FALSE(std::filesystem::exists(path("docs.jsonl.moe-tokens")));
  TokenCacheRequest nowhere = request();
  nowhere.cache_dir = "/proc/moe-no-such-place";  // not writable, even for root
  expect_data_error([&] { open(nowhere, *encoder); },
                    {"cannot write the token cache in '/proc/moe-no-such-place", "data.cache_dir"});
}

TEST_F(TokenCacheTest, JsonLinesErrorsNameFileAndLine) {
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  write_text(path("docs.jsonl"), jsonl({"ab"}) + "\n   \n{\"body\": \"ab\"}\n");
  expect_data_error([&] { open(request(), *encoder); },
                    {path("docs.jsonl"), "line 4", "no string field \"text\""});
  write_text(path("docs.jsonl"), "{\"text\": \"ab\"\n");
  expect_data_error([&] { open(request(), *encoder); }, {path("docs.jsonl"), "line 1", "not JSON"});
}

TEST_F(TokenCacheTest, TokenizerWithoutEosNeedsTheKey) {
  std::filesystem::remove(path("tok/tokenizer_config.json"));
  try {
    tokenizer_encoder(path("tok"), -1);
    ADD_FAILURE() << "no DataError";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("data.eos_token"), std::string::npos) << e.what();
  }
  // config.json's eos_token_id (a list: the first) when tokenizer_config.json names none.
  write_text(path("tok/config.json"), R"({"eos_token_id": [11, 10]})");
  EXPECT_EQ(tokenizer_encoder(path("tok/tokenizer.json"), -1)->eos(), 11u);
}

TEST_F(TokenCacheTest, PlainTextFilesAreOneDocumentEach) {
  std::filesystem::create_directories(path("corpus/b"));
  write_text(path("corpus/a.txt"), "ab ab");
  write_text(path("corpus/b/c.txt"), "aab");
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  TokenCacheRequest r = request("corpus");
  r.text_field = "";
  const auto cache = open(r, *encoder);
  EXPECT_EQ(all_tokens(*cache), (Ids{1, 7, 7, 10, 1, 5, 6, 10}));
  EXPECT_EQ(std::filesystem::path(cache->path()).parent_path(), path("corpus.moe-tokens"));
}

TEST_F(TokenCacheTest, AFolderOfJsonLinesReadsItsJsonlFilesInPathOrder) {
  std::filesystem::create_directories(path("shards/b"));
  write_text(path("shards/b/1.jsonl"), jsonl({"aab"}));
  write_text(path("shards/0.jsonl"), jsonl({"ab ab"}));
  write_text(path("shards/README.md"), "# not JSON");
  const auto encoder = tokenizer_encoder(path("tok"), -1);
  const auto cache = open(request("shards"), *encoder);
  EXPECT_EQ(all_tokens(*cache), (Ids{1, 7, 7, 10, 1, 5, 6, 10}));
  std::filesystem::create_directories(path("empty"));
  write_text(path("empty/notes.txt"), "x");
  expect_data_error([&] { open(request("empty"), *encoder); }, {path("empty"), "*.jsonl"});
}

TEST_F(TokenCacheTest, BytesWithoutATokenizer) {
  const auto encoder = byte_encoder(-1);  // the EOS is a line break
  TokenCacheRequest bytes = request();
  bytes.vocab = 256;
  const auto cache = open(bytes, *encoder);
  EXPECT_EQ(all_tokens(*cache), (Ids{'a', 'b', ' ', 'a', 'b', 10, 10, 'a', 'a', 'b', 10}));
}

}  // namespace
}  // namespace moe::data::test
