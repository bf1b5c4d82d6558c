// The language-model corpora as batch sources: token caches and Megatron indexed data sets packed
// into windows of seq_len + 1 (documents one after the other, each with its EOS), the split, and
// which tokenizer a decoder uses.
#include <cstring>
#include <filesystem>

#include "corpus_test_util.h"

namespace moe::data::test {
namespace {

using Ids = std::vector<int64_t>;

// A row of a batch as ids.
Ids row(const at::Tensor& t, int64_t r) {
  const at::Tensor x = t[r].contiguous();
  return Ids(x.data_ptr<int64_t>(), x.data_ptr<int64_t>() + x.numel());
}

// Whether `window` occurs in `stream` at some offset.
bool inside(const Ids& stream, const Ids& window) {
  return std::search(stream.begin(), stream.end(), window.begin(), window.end()) != stream.end();
}

class CorpusSourceTest : public CorpusTest {
 protected:
  // The cache's stream for docs.jsonl: [1, 7, 7, 10 | 1, 10 | 1, 5, 6, 10].
  const Ids stream_{1, 7, 7, 10, 1, 10, 1, 5, 6, 10};
};

TEST_F(CorpusSourceTest, PacksDocumentsIntoWindows) {
  protocol::RunConfig c = corpus_config("jsonl", path("docs.jsonl"), path("tok"));
  auto s = make_batch_source(c);
  EXPECT_EQ(s->train_samples(), 2);  // 10 tokens, windows of 5
  const Batch b = s->next_train(6);
  ASSERT_EQ(b.inputs.sizes(), (at::IntArrayRef{6, 4}));
  for (int64_t r = 0; r < 6; ++r) {
    Ids window = row(b.inputs, r);
    window.push_back(row(b.targets, r).back());
    EXPECT_TRUE(inside(stream_, window)) << r;
    EXPECT_EQ(Ids(window.begin() + 1, window.end()), row(b.targets, r));
  }
  // The same seed and batch index give the same windows.
  auto again = make_batch_source(c);
  EXPECT_TRUE(same(again->next_train(6), b));
  EXPECT_NE(s->describe().find("3 documents"), std::string::npos) << s->describe();
}

TEST_F(CorpusSourceTest, HoldsOutTheLastTokensAsContiguousWindows) {
  protocol::RunConfig c = corpus_config("jsonl", path("docs.jsonl"), path("tok"));
  c.data.val_fraction = 0.5;
  auto s = make_batch_source(c);
  ASSERT_EQ(s->eval_batch_count(4), 1);
  const Batch b = s->eval_batch(0, 4);
  ASSERT_EQ(b.size(), 1);
  EXPECT_EQ(row(b.inputs, 0), (Ids{10, 1, 5, 6}));
  EXPECT_EQ(row(b.targets, 0), (Ids{1, 5, 6, 10}));
  for (int i = 0; i < 20; ++i) {  // training windows stay in the first 5 tokens
    const Batch t = s->next_train(1);
    EXPECT_EQ(row(t.inputs, 0), (Ids{1, 7, 7, 10}));
  }
}

TEST_F(CorpusSourceTest, ADecoderUsesTheRunsOwnTokenizerWhenNoneIsSet) {
  protocol::RunConfig c = corpus_config("jsonl", path("docs.jsonl"), "");
  SourceOptions options;
  options.run_tokenizer_dir = path("tok");
  EXPECT_EQ(resolved_tokenizer(c, options), path("tok/tokenizer.json"));
  c.model.vocab = 256;
  c.model.kind = protocol::ModelKind::Lm;  // an lm reads bytes
  EXPECT_EQ(resolved_tokenizer(c, options), "");
  c.model.kind = protocol::ModelKind::Decoder;
  options.run_tokenizer_dir = path("nothing-here");
  EXPECT_EQ(resolved_tokenizer(c, options), "");
  c.data.tokenizer = path("tok");
  EXPECT_EQ(resolved_tokenizer(c, options), path("tok"));
}

TEST_F(CorpusSourceTest, TextWithoutATokenizerStaysBytes) {
  write_text(path("a.txt"), "ab ab aab");
  protocol::RunConfig c = corpus_config("text", path("a.txt"), "");
  c.model.vocab = 256;
  auto s = make_batch_source(c);
  EXPECT_NE(s->describe().find("9 bytes"), std::string::npos) << s->describe();
  EXPECT_FALSE(std::filesystem::exists(path("a.txt.moe-tokens")));
}

// A Megatron data set written by the documented layout (data/megatron_dataset.h).
struct Megatron {
  int code = 8;  // uint16
  int bytes = 2;
  std::vector<Ids> sequences;
  std::vector<int64_t> document_index;

  void write(const std::string& prefix) const {
    Bytes bin, idx;
    const auto put = [](Bytes* out, const void* p, size_t n) {
      out->insert(out->end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
    };
    std::vector<int32_t> sizes;
    std::vector<int64_t> pointers;
    for (const Ids& s : sequences) {
      pointers.push_back(static_cast<int64_t>(bin.size()));
      sizes.push_back(static_cast<int32_t>(s.size()));
      for (int64_t id : s) put(&bin, &id, static_cast<size_t>(bytes));  // little-endian low bytes
    }
    put(&idx, "MMIDIDX\0\0", 9);
    const uint64_t version = 1, count = sequences.size(), docs = document_index.size();
    put(&idx, &version, 8);
    idx.push_back(static_cast<uint8_t>(code));
    put(&idx, &count, 8);
    put(&idx, &docs, 8);
    put(&idx, sizes.data(), sizes.size() * 4);
    put(&idx, pointers.data(), pointers.size() * 8);
    put(&idx, document_index.data(), document_index.size() * 8);
    write_file(prefix + ".bin", bin);
    write_file(prefix + ".idx", idx);
  }
};

TEST_F(CorpusSourceTest, MegatronSequencesAreReadAsTheyAre) {
  Megatron m;
  m.sequences = {{5, 6, 7, 2}, {}, {8, 9, 2}, {10, 11, 12, 13, 2}};
  m.document_index = {0, 2, 4};
  for (const auto& [code, bytes] : std::vector<std::pair<int, int>>{{8, 2}, {4, 4}, {5, 8}}) {
    m.code = code;
    m.bytes = bytes;
    m.write(path("set"));
    protocol::RunConfig c = corpus_config("megatron", path("set"), "");
    c.data.val_fraction = 0.5;  // 12 tokens: 6 train, 6 held out -> one window of 5
    auto s = make_batch_source(c);
    ASSERT_EQ(s->eval_batch_count(1), 1) << code;
    EXPECT_EQ(row(s->eval_batch(0, 1).inputs, 0), (Ids{2, 10, 11, 12})) << code;
    EXPECT_NE(s->describe().find("2 documents, 4 sequences"), std::string::npos) << s->describe();
  }
}

TEST_F(CorpusSourceTest, BadMegatronFilesAreRefusedByName) {
  Megatron m;
  m.sequences = {{5, 6, 7, 2, 3, 4}};
  m.document_index = {0, 1};
  protocol::RunConfig c = corpus_config("megatron", path("set"), "");
  const auto refused = [&](const std::string& file, const std::string& what) {
    expect_data_error([&] { make_batch_source(c); }, {path("set") + file, what});
  };
  m.write(path("set"));
  Bytes idx = read_file(path("set.idx"));
  write_file(path("set.idx"), Bytes(idx.begin(), idx.end() - 1));
  refused(".idx", "truncated");
  idx[0] = 'X';
  write_file(path("set.idx"), idx);
  refused(".idx", "MMIDIDX");
  m.code = 6;  // float64
  m.bytes = 8;
  m.write(path("set"));
  refused(".idx", "not an integer type");
  m.code = 4;
  m.bytes = 4;
  m.sequences = {{5, 6, -7, 2, 3, 4}};
  m.write(path("set"));
  refused(".bin", "token id -7");
  m.sequences = {{5, 6, 70, 2, 3, 4}};  // vocabulary 64
  m.write(path("set"));
  refused(".bin", "token id 70");
  m.sequences = {{5, 6, 7, 2, 3, 4}};
  m.write(path("set"));
  const Bytes bin = read_file(path("set.bin"));
  write_file(path("set.bin"), Bytes(bin.begin(), bin.end() - 4));
  refused(".bin", "outside");
  m.document_index = {0, 2};
  m.write(path("set"));
  refused(".idx", "document index");
}

}  // namespace
}  // namespace moe::data::test
