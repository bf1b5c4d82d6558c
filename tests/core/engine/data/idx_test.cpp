// IDX (MNIST-format) files: values read back exactly, plain and gzipped, and every malformed file
// is a DataError naming it.
#include <filesystem>

#include "data/idx_reader.h"
#include "data_test_util.h"

namespace moe::data::test {
namespace {

class IdxTest : public DataTest {
 protected:
  // A data set of n_train / n_test images in the scratch directory; the test set is numbered on
  // from the train set, so every image is distinct.
  void write_set(int64_t n_train, int64_t n_test, bool gzip_images = false,
                 bool gzip_labels = false) {
    const std::string zi = gzip_images ? ".gz" : "", zl = gzip_labels ? ".gz" : "";
    write_file(path("train-images-idx3-ubyte" + zi), idx_images(n_train), gzip_images);
    write_file(path("train-labels-idx1-ubyte" + zl), idx_labels(n_train), gzip_labels);
    if (n_test > 0) {
      write_file(path("t10k-images-idx3-ubyte" + zi), idx_images(n_test, 28, 28, n_train),
                 gzip_images);
      write_file(path("t10k-labels-idx1-ubyte" + zl), idx_labels(n_test, n_train), gzip_labels);
    }
  }

  void expect_images(const ImageSet& set, int64_t n, int64_t first) {
    ASSERT_EQ(set.images.sizes(), (at::IntArrayRef{n, 1, 28, 28}));
    ASSERT_EQ(set.labels.scalar_type(), at::kLong);
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_TRUE(same(set.images[i].flatten(), test_image(first + i, 784))) << i;
      EXPECT_EQ(set.labels[i].item<int64_t>(), test_label(first + i)) << i;
    }
  }
};

TEST_F(IdxTest, ReadsPlainAndGzippedFilesExactly) {
  for (bool gz_images : {false, true}) {
    for (bool gz_labels : {false, true}) {
      SCOPED_TRACE(std::to_string(gz_images) + std::to_string(gz_labels));
      std::filesystem::remove_all(dir_);
      std::filesystem::create_directories(dir_);
      write_set(7, 3, gz_images, gz_labels);
      const IdxData data = load_idx(path());
      ASSERT_TRUE(data.has_test);
      expect_images(data.train, 7, 0);
      expect_images(data.test, 3, 7);
    }
  }
}

TEST_F(IdxTest, PathMayNameOneOfTheFiles) {
  write_set(4, 2, true, true);
  const IdxData data = load_idx(path("train-labels-idx1-ubyte.gz"));
  expect_images(data.train, 4, 0);
  expect_images(data.test, 2, 4);
}

TEST_F(IdxTest, WithoutTestFilesTheHeldOutSetIsTheTailOfTrain) {
  write_set(10, 0);
  protocol::RunConfig c = config("image", "idx", path());
  c.data.val_fraction = 0.3;
  auto source = make_batch_source(c);
  EXPECT_EQ(source->train_samples(), 7);
  ASSERT_EQ(source->eval_batch_count(2), 2);
  const Batch last = source->eval_batch(1, 2);
  ASSERT_EQ(last.size(), 1);
  EXPECT_EQ(last.targets[0].item<int64_t>(), test_label(9));
  c.data.val_fraction = 0;
  EXPECT_EQ(make_batch_source(c)->eval_batch_count(2), 0);
}

TEST_F(IdxTest, MissingDirectoryAndFiles) {
  expect_data_error([&] { load_idx(path("nowhere")); }, {path("nowhere"), "not found"});
  expect_data_error([&] { load_idx(path()); }, {path(), "train-images-idx3-ubyte"});
  write_file(path("train-images-idx3-ubyte"), idx_images(2));
  expect_data_error([&] { load_idx(path()); }, {path(), "train-labels-idx1-ubyte"});
  write_file(path("train-labels-idx1-ubyte"), idx_labels(2));
  write_file(path("t10k-images-idx3-ubyte"), idx_images(2));
  expect_data_error([&] { load_idx(path()); }, {"t10k-images-idx3-ubyte", "labels"});
}

TEST_F(IdxTest, WrongMagicNumbers) {
  write_set(3, 0);
  const std::string images = path("train-images-idx3-ubyte");
  const std::string labels = path("train-labels-idx1-ubyte");
  expect_data_error([&] { read_idx_pair(labels, labels); },
                    {labels, "magic number 0x00000801", "expected 0x00000803"});
  expect_data_error([&] { read_idx_pair(images, images); },
                    {images, "magic number 0x00000803", "expected 0x00000801"});
}

TEST_F(IdxTest, TruncatedAndOverlongFiles) {
  for (bool gzip : {false, true}) {
    SCOPED_TRACE(gzip);
    const std::string images = path(gzip ? "i.gz" : "i"), labels = path(gzip ? "l.gz" : "l");
    Bytes full = idx_images(3);
    write_file(labels, idx_labels(3), gzip);
    for (size_t cut : {size_t{0}, size_t{10}, size_t{16}, full.size() - 1}) {
      SCOPED_TRACE(cut);
      write_file(images, Bytes(full.begin(), full.begin() + cut), gzip);
      expect_data_error([&] { read_idx_pair(images, labels); }, {images, "truncated"});
    }
    write_file(images, full, gzip);
    Bytes short_labels = idx_labels(3);
    short_labels.pop_back();
    write_file(labels, short_labels, gzip);
    expect_data_error([&] { read_idx_pair(images, labels); },
                      {labels, "truncated", "expected 11 bytes", "found 10"});
    full.push_back(0);
    write_file(images, full, gzip);
    expect_data_error([&] { read_idx_pair(images, labels); }, {images, "too long"});
  }
}

// A small .gz file that inflates to far more than its header allows is refused at that size,
// not read to the end (it could fill the memory).
TEST_F(IdxTest, AFileInflatingPastItsHeaderIsRefusedAtTheHeadersSize) {
  Bytes bomb = idx_images(1);
  bomb.resize(64 << 20, 0);  // 64 MiB of zeros: about 64 KiB compressed
  write_file(path("bomb.gz"), bomb, true);
  write_file(path("l"), idx_labels(1));
  EXPECT_LT(std::filesystem::file_size(path("bomb.gz")), size_t{1} << 20);
  expect_data_error([&] { read_idx_pair(path("bomb.gz"), path("l")); },
                    {path("bomb.gz"), "holds more than 801 bytes once inflated",
                     "the most its IDX header allows (784 bytes of data)"});
}

TEST_F(IdxTest, CompressedStreamCutShortIsTruncated) {
  // A gzip file cut in the middle of its deflate stream, not a short payload compressed whole.
  write_file(path("whole.gz"), idx_images(50), true);
  const Bytes gz = read_file(path("whole.gz"));
  write_file(path("cut.gz"), Bytes(gz.begin(), gz.begin() + gz.size() / 2));
  write_file(path("l"), idx_labels(50));
  expect_data_error([&] { read_idx_pair(path("cut.gz"), path("l")); },
                    {path("cut.gz"), "truncated", "expected 39216 bytes"});
}

TEST_F(IdxTest, CountMismatchBadLabelAndWrongSize) {
  write_file(path("i"), idx_images(3));
  write_file(path("l"), idx_labels(4));
  expect_data_error([&] { read_idx_pair(path("i"), path("l")); },
                    {path("l"), "4 labels", "3 images"});
  Bytes labels = idx_labels(3);
  labels[8 + 2] = 10;
  write_file(path("l"), labels);
  expect_data_error([&] { read_idx_pair(path("i"), path("l")); },
                    {path("l"), "label 10 at index 2"});
  write_file(path("i"), idx_images(2, 32, 32));
  expect_data_error([&] { read_idx_pair(path("i"), path("l")); },
                    {path("i"), "32x32", "needs 28x28"});
}

// The data set is a build dependency (dataset-fashion-mnist; configure fails without it), so a
// missing file fails here rather than skipping. How fast it loads is a benchmark's business.
TEST(FashionMnistTest, LoadsTheInstalledDataSet) {
  const std::string dir = "/usr/share/datasets/fashion-mnist";
  ASSERT_TRUE(std::filesystem::exists(dir + "/train-images-idx3-ubyte.gz"))
      << "no Fashion-MNIST at " << dir << ": install dataset-fashion-mnist";
  auto source = make_batch_source(config("image", "idx", dir));
  EXPECT_EQ(source->train_samples(), 60000);
  EXPECT_EQ(source->eval_batch_count(1000), 10);
  const Batch b = source->next_train(64);
  EXPECT_EQ(b.inputs.sizes(), (at::IntArrayRef{64, 1, 28, 28}));
  EXPECT_EQ(b.inputs.scalar_type(), at::kFloat);
  EXPECT_LT(b.targets.max().item<int64_t>(), 10);
  EXPECT_EQ(source->eval_batch(9, 1000).size(), 1000);
  // The published Fashion-MNIST pixel mean is about 0.286, standard deviation about 0.353.
  EXPECT_NE(source->describe().find("0.28"), std::string::npos) << source->describe();
}

}  // namespace
}  // namespace moe::data::test
