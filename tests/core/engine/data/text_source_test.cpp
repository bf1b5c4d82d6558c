// data.kind "text": the byte split, windows that stay inside their part, determinism, and errors.
#include <set>

#include "data/text_source.h"
#include "data_test_util.h"

namespace moe::data::test {
namespace {

class TextTest : public DataTest {
 protected:
  // 800 training bytes cycling through 0..96 (byte 799 is 150, the only one), then 200 held-out
  // bytes 200, 201, ... 255, 200, ...
  std::string write_text() {
    Bytes bytes;
    for (int i = 0; i < 800; ++i) bytes.push_back(static_cast<uint8_t>(i % 97));
    bytes[799] = 150;
    for (int i = 0; i < 200; ++i) bytes.push_back(static_cast<uint8_t>(200 + i % 56));
    write_file(path("text.txt"), bytes);
    return path("text.txt");
  }

  std::unique_ptr<BatchSource> text(int64_t seq_len, double val_fraction, uint64_t seed = 1) {
    return make_text_source(path("text.txt"), seq_len, val_fraction, seed);
  }
};

TEST_F(TextTest, SplitsBytesAndServesHeldOutWindowsInOrder) {
  write_text();
  auto s = text(15, 0.2);  // windows of 16 bytes: 12 held out (192 of 200 bytes)
  EXPECT_EQ(s->train_samples(), 50);
  ASSERT_EQ(s->eval_batch_count(5), 3);
  EXPECT_EQ(s->eval_batch(2, 5).size(), 2);
  for (int64_t j = 0; j < 3; ++j) {
    const Batch b = s->eval_batch(j, 5);
    ASSERT_EQ(b.inputs.size(1), 15);
    ASSERT_EQ(b.inputs.scalar_type(), at::kLong);
    for (int64_t r = 0; r < b.size(); ++r) {
      const int64_t start = 800 + (j * 5 + r) * 16;
      for (int64_t t = 0; t < 15; ++t) {
        EXPECT_EQ(b.inputs[r][t].item<int64_t>(), 200 + (start + t - 800) % 56);
        EXPECT_EQ(b.targets[r][t].item<int64_t>(), 200 + (start + t + 1 - 800) % 56);
      }
    }
  }
  EXPECT_THROW(s->eval_batch(3, 5), std::out_of_range);
  EXPECT_EQ(text(15, 0.0)->eval_batch_count(5), 0);
  EXPECT_NE(s->describe().find("800 train"), std::string::npos) << s->describe();
}

TEST_F(TextTest, TrainWindowsAreContiguousAndStayInTheTrainingPart) {
  write_text();
  auto s = text(15, 0.2);
  bool saw_first = false, saw_last = false;
  for (int i = 0; i < 250; ++i) {
    const Batch b = s->next_train(16);
    ASSERT_EQ(b.inputs.sizes(), (at::IntArrayRef{16, 15}));
    EXPECT_TRUE(same(b.inputs.narrow(1, 1, 14), b.targets.narrow(1, 0, 14)));
    EXPECT_LT(b.inputs.max().item<int64_t>(), 200);
    EXPECT_LT(b.targets.max().item<int64_t>(), 200);  // never a held-out byte
    saw_first |= (b.inputs.select(1, 0) == 0).any().item<bool>();
    saw_last |= (b.targets.select(1, 14) == 150).any().item<bool>();  // the window ending at 799
    const at::Tensor x = b.inputs.narrow(1, 0, 14), next = b.inputs.narrow(1, 1, 14);
    EXPECT_TRUE(((next - x - 1) % 97 == 0).logical_or(next == 150).all().item<bool>());
  }
  EXPECT_TRUE(saw_first);
  EXPECT_TRUE(saw_last);
}

TEST_F(TextTest, DeterministicAndSeekable) {
  write_text();
  auto a = text(15, 0.2, 4), b = text(15, 0.2, 4), c = text(15, 0.2, 5);
  for (int i = 0; i < 3; ++i) {
    const Batch x = a->next_train(4);
    EXPECT_TRUE(same(x, b->next_train(4)));
    EXPECT_FALSE(same(x, c->next_train(4)));
  }
  const nlohmann::json at = a->position();
  EXPECT_EQ(at, (nlohmann::json{{"batch", 3}}));
  const Batch next = a->next_train(4);
  auto d = text(15, 0.2, 4);
  d->seek(at);
  EXPECT_TRUE(same(d->next_train(4), next));
  expect_data_error([&] { d->seek({{"epoch", 0}}); }, {"text.txt", "position"});
}

TEST_F(TextTest, ErrorsNameTheFileAndTheSizes) {
  expect_data_error([&] { make_text_source(path("absent.txt"), 8, 0.1, 1); },
                    {path("absent.txt"), "not found"});
  write_file(path("text.txt"), {});
  expect_data_error([&] { text(8, 0.1); }, {path("text.txt"), "empty"});
  write_file(path("text.txt"), Bytes(100, 'a'));
  expect_data_error([&] { text(120, 0.0); },
                    {path("text.txt"), "100 of 100 bytes", "seq_len + 1 = 121", "seq_len"});
  expect_data_error([&] { text(20, 0.1); },
                    {path("text.txt"), "held-out", "10 of 100 bytes", "val_fraction"});
  expect_data_error([&] { text(20, 0.9); }, {path("text.txt"), "training part is 10"});
  EXPECT_NO_THROW(text(9, 0.1));
}

}  // namespace
}  // namespace moe::data::test

namespace moe::data::test {
namespace {

class TextDirectoryTest : public DataTest {};

TEST_F(TextDirectoryTest, ADirectoryIsItsFilesInPathOrder) {
  std::filesystem::create_directories(path("corpus/sub"));
  write_file(path("corpus/b.txt"), Bytes(40, 'b'));
  write_file(path("corpus/a.txt"), Bytes(40, 'a'));
  write_file(path("corpus/sub/c.txt"), Bytes(20, 'c'));
  auto s = make_text_source(path("corpus"), 9, 0.2, 1);  // 100 bytes: 80 train, 20 held out
  EXPECT_NE(s->describe().find("100 bytes"), std::string::npos) << s->describe();
  // The held-out part is the last file in path order: sub/c.txt.
  const Batch held = s->eval_batch(0, 4);
  ASSERT_EQ(held.size(), 2);
  EXPECT_TRUE(held.inputs.eq('c').all().item<bool>());
  EXPECT_THROW(make_text_source(path("nothing-here"), 9, 0.2, 1), DataError);
}

}  // namespace
}  // namespace moe::data::test
