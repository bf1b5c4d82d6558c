// CIFAR-10 binary files: record layout read back exactly, batch files joined in order, and bad
// files are DataErrors naming them.
#include <filesystem>

#include "data/cifar_reader.h"
#include "data_test_util.h"

namespace moe::data::test {
namespace {

using CifarTest = DataTest;

void expect_records(const ImageSet& set, int64_t n, int64_t first) {
  ASSERT_EQ(set.images.sizes(), (at::IntArrayRef{n, 3, 32, 32}));
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(set.labels[i].item<int64_t>(), test_label(first + i));
    // Record pixel k is channel k / 1024, row (k % 1024) / 32, column k % 32.
    for (int64_t k : {0, 1, 31, 32, 1023, 1024, 2047, 2048, 3071}) {
      EXPECT_EQ(set.images[i][k / 1024][(k % 1024) / 32][k % 32].item<int64_t>(),
                test_pixel(first + i, k))
          << i << " " << k;
    }
    EXPECT_TRUE(same(set.images[i].flatten(), test_image(first + i, 3072))) << i;
  }
}

TEST_F(CifarTest, ReadsRecordsExactlyAndJoinsBatchFilesInOrder) {
  write_file(path("data_batch_1.bin"), cifar_records(3, 0));
  write_file(path("data_batch_3.bin"), cifar_records(2, 3));  // 2 missing: the present ones count
  write_file(path("test_batch.bin"), cifar_records(4, 5));
  const CifarData data = load_cifar10(path());
  EXPECT_EQ(data.train_files, 2);
  ASSERT_TRUE(data.has_test);
  expect_records(data.train, 5, 0);
  expect_records(data.test, 4, 5);
}

TEST_F(CifarTest, SourceServesNormalisedImagesAndTheTestBatch) {
  write_file(path("data_batch_1.bin"), cifar_records(6));
  write_file(path("test_batch.bin"), cifar_records(5, 6));
  auto s = make_batch_source(config("image", "cifar10", path("data_batch_1.bin")));
  EXPECT_EQ(s->train_samples(), 6);
  EXPECT_EQ(s->eval_batch_count(2), 3);
  const Batch b = s->next_train(6);
  EXPECT_EQ(b.inputs.sizes(), (at::IntArrayRef{6, 3, 32, 32}));
  for (int64_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(b.inputs.select(1, c).mean().item<double>(), 0.0, 1e-4);
    EXPECT_NEAR(b.inputs.select(1, c).std(false).item<double>(), 1.0, 1e-4);
  }
  const Batch last = s->eval_batch(2, 2);
  ASSERT_EQ(last.size(), 1);
  EXPECT_EQ(last.targets[0].item<int64_t>(), test_label(10));
  EXPECT_NE(s->describe().find("CIFAR-10"), std::string::npos);
}

TEST_F(CifarTest, WithoutTestBatchTheHeldOutSetIsTheTailOfTrain) {
  write_file(path("data_batch_1.bin"), cifar_records(10));
  protocol::RunConfig c = config("image", "cifar10", path());
  c.data.val_fraction = 0.2;
  auto s = make_batch_source(c);
  EXPECT_EQ(s->train_samples(), 8);
  ASSERT_EQ(s->eval_batch_count(5), 1);
  const Batch b = s->eval_batch(0, 5);
  ASSERT_EQ(b.size(), 2);
  EXPECT_EQ(b.targets[1].item<int64_t>(), test_label(9));
}

TEST_F(CifarTest, SizeNotAWholeNumberOfRecordsIsTruncated) {
  Bytes bytes = cifar_records(2);
  bytes.resize(bytes.size() - 100);
  write_file(path("data_batch_1.bin"), bytes);
  expect_data_error([&] { load_cifar10(path()); },
                    {path("data_batch_1.bin"), "truncated", "6046 bytes", "3073-byte records"});
  write_file(path("data_batch_1.bin"), cifar_records(2));
  write_file(path("test_batch.bin"), Bytes(3074, 1));
  expect_data_error([&] { load_cifar10(path()); }, {path("test_batch.bin"), "3074 bytes"});
  write_file(path("test_batch.bin"), Bytes{});
  expect_data_error([&] { load_cifar10(path()); }, {path("test_batch.bin"), "empty"});
}

TEST_F(CifarTest, BadLabelAndMissingFiles) {
  Bytes bytes = cifar_records(3);
  bytes[2 * 3073] = 10;
  write_file(path("data_batch_2.bin"), cifar_records(1));
  expect_data_error([&] { load_cifar10(path()); }, {path(), "data_batch_1.bin"});
  write_file(path("data_batch_1.bin"), bytes);
  expect_data_error([&] { load_cifar10(path()); },
                    {path("data_batch_1.bin"), "record 2", "label 10"});
  expect_data_error([&] { load_cifar10(path("absent")); }, {path("absent"), "not found"});
}

}  // namespace
}  // namespace moe::data::test
