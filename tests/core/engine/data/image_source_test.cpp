// The image BatchSource: normalisation, seeded epochs that visit every sample once, exact seek, and
// held-out batches in file order.
#include <algorithm>
#include <cmath>
#include <set>

#include "data/image_set.h"
#include "data_test_util.h"

namespace moe::data::test {
namespace {

// n images of c x 28 x 28 with test_pixel values (channel-major, like the file formats).
ImageSet test_set(int64_t n, int64_t c = 1, int64_t first = 0) {
  at::Tensor images = at::empty({n, c * 784}, at::kByte);
  at::Tensor labels = at::empty({n}, at::kLong);
  for (int64_t i = 0; i < n; ++i) {
    images[i] = test_image(first + i, c * 784);
    labels[i] = int64_t{test_label(first + i)};
  }
  return {images.view({n, c, 28, 28}), labels};
}

std::unique_ptr<BatchSource> source(int64_t n, uint64_t seed, int64_t held = 5) {
  return make_image_source(test_set(n), test_set(held, 1, n), seed, "test");
}

// Mean and population standard deviation of all pixels / 255, computed directly.
std::pair<double, double> pixel_stats(const ImageSet& set) {
  const at::Tensor x = set.images.to(at::kDouble).div(255.0);
  return {x.mean().item<double>(), x.std(/*unbiased=*/false).item<double>()};
}

// Which training image each row of a batch is (pixel 0 is 37 i mod 256).
std::vector<int64_t> sample_ids(const Batch& b, const std::pair<double, double>& stats) {
  std::vector<int64_t> ids;
  for (int64_t r = 0; r < b.size(); ++r) {
    const double raw = (b.inputs[r][0][0][0].item<double>() * stats.second + stats.first) * 255.0;
    const auto p = static_cast<int64_t>(std::lround(raw));
    for (int64_t i = 0; i < 256; ++i)
      if ((i * 37) % 256 == p) ids.push_back(i);
  }
  return ids;
}

TEST(ImageSourceTest, NormalisesWithTheTrainingSetStatistics) {
  const ImageSet train = test_set(20);
  const auto stats = pixel_stats(train);
  auto s = make_image_source(train, test_set(3, 1, 20), 1, "test");
  const Batch b = s->eval_batch(0, 3);
  ASSERT_EQ(b.inputs.scalar_type(), at::kFloat);
  ASSERT_EQ(b.inputs.sizes(), (at::IntArrayRef{3, 1, 28, 28}));
  const at::Tensor raw = test_set(3, 1, 20).images.to(at::kDouble).div(255.0);
  const at::Tensor expected = raw.sub(stats.first).div(stats.second).to(at::kFloat);
  EXPECT_TRUE(at::allclose(b.inputs, expected, 1e-5, 1e-5));
  // A whole epoch of training batches has mean 0 and standard deviation 1.
  const Batch epoch = s->next_train(20);
  EXPECT_NEAR(epoch.inputs.mean().item<double>(), 0.0, 1e-4);
  EXPECT_NEAR(epoch.inputs.std(false).item<double>(), 1.0, 1e-4);
}

TEST(ImageSourceTest, NormalisesEachChannelSeparately) {
  const ImageSet train = test_set(6, 3);
  const auto stats = channel_stats(train.images);
  for (int64_t c = 0; c < 3; ++c) {
    const at::Tensor x = train.images.select(1, c).to(at::kDouble).div(255.0);
    EXPECT_NEAR(stats.mean[c].item<double>(), x.mean().item<double>(), 1e-12);
    EXPECT_NEAR(stats.std[c].item<double>(), x.std(false).item<double>(), 1e-12);
  }
  EXPECT_NE(stats.mean[0].item<double>(), stats.mean[1].item<double>());
  const Batch b = make_image_source(train, {}, 1, "t")->next_train(6);
  for (int64_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(b.inputs.select(1, c).mean().item<double>(), 0.0, 1e-4);
    EXPECT_NEAR(b.inputs.select(1, c).std(false).item<double>(), 1.0, 1e-4);
  }
}

TEST(ImageSourceTest, SameSeedSameBatchesOtherSeedOtherOrder) {
  auto a = source(30, 7), b = source(30, 7), c = source(30, 8);
  bool any_differs = false;
  for (int i = 0; i < 6; ++i) {
    const Batch x = a->next_train(8), y = b->next_train(8), z = c->next_train(8);
    EXPECT_TRUE(same(x, y)) << i;
    any_differs |= !same(x, z);
  }
  EXPECT_TRUE(any_differs);
}

TEST(ImageSourceTest, EveryEpochVisitsEachSampleOnceInANewOrder) {
  const int64_t n = 10;
  const auto stats = pixel_stats(test_set(n));
  auto s = source(n, 3);
  std::vector<int64_t> stream;
  for (int i = 0; i < 10; ++i) {  // 30 samples: 3 epochs, batches crossing epoch boundaries
    const Batch b = s->next_train(3);
    ASSERT_EQ(b.size(), 3);
    const auto ids = sample_ids(b, stats);
    ASSERT_EQ(ids.size(), 3u);
    for (int64_t r = 0; r < 3; ++r) EXPECT_EQ(b.targets[r].item<int64_t>(), test_label(ids[r]));
    stream.insert(stream.end(), ids.begin(), ids.end());
  }
  std::vector<std::vector<int64_t>> epochs;
  for (int e = 0; e < 3; ++e) {
    std::vector<int64_t> epoch(stream.begin() + e * n, stream.begin() + (e + 1) * n);
    epochs.push_back(epoch);
    std::sort(epoch.begin(), epoch.end());
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(epoch[i], i) << "epoch " << e;
  }
  EXPECT_NE(epochs[0], epochs[1]);
  EXPECT_NE(epochs[1], epochs[2]);
  EXPECT_EQ(s->position(), (nlohmann::json{{"epoch", 3}, {"index", 0}}));
}

TEST(ImageSourceTest, SeekToPositionReproducesTheFollowingBatches) {
  auto a = source(10, 5);
  for (int skip : {0, 1, 2, 3, 7}) {
    SCOPED_TRACE(skip);
    for (int i = 0; i < skip; ++i) a->next_train(4);
    const nlohmann::json at = a->position();
    std::vector<Batch> expected;
    for (int i = 0; i < 6; ++i) expected.push_back(a->next_train(4));  // crosses 2+ epochs
    auto b = source(10, 5);
    b->seek(at);
    EXPECT_EQ(b->position(), at);
    for (int i = 0; i < 6; ++i) EXPECT_TRUE(same(b->next_train(4), expected[i])) << i;
    EXPECT_EQ(b->position(), a->position());
  }
}

TEST(ImageSourceTest, BadPositionsAreDataErrors) {
  auto s = source(10, 5);
  expect_data_error([&] { s->seek({{"batch", 3}}); }, {"position"});
  expect_data_error([&] { s->seek({{"epoch", 1}, {"index", -1}}); }, {"position"});
  expect_data_error([&] { s->seek({{"epoch", 1}, {"index", 11}}); }, {"10 training samples"});
  s->seek({{"epoch", 2}, {"index", 10}});  // the end of epoch 2 is the start of epoch 3
  s->next_train(1);
  EXPECT_EQ(s->position(), (nlohmann::json{{"epoch", 3}, {"index", 1}}));
}

TEST(ImageSourceTest, EvalBatchesAreTheHeldOutSetInFileOrder) {
  auto s = source(10, 5, /*held=*/7);
  ASSERT_EQ(s->eval_batch_count(3), 3);
  ASSERT_EQ(s->eval_batch_count(7), 1);
  ASSERT_EQ(s->eval_batch_count(100), 1);
  std::vector<int64_t> labels;
  for (int64_t j = 0; j < 3; ++j) {
    const Batch b = s->eval_batch(j, 3);
    EXPECT_EQ(b.size(), j < 2 ? 3 : 1);
    for (int64_t r = 0; r < b.size(); ++r) labels.push_back(b.targets[r].item<int64_t>());
  }
  for (int64_t i = 0; i < 7; ++i) EXPECT_EQ(labels[i], test_label(10 + i));
  EXPECT_TRUE(same(s->eval_batch(1, 3), s->eval_batch(1, 3)));
  EXPECT_THROW(s->eval_batch(3, 3), std::out_of_range);
  EXPECT_EQ(source(10, 5, 0)->eval_batch_count(4), 0);
}

TEST(ImageSourceTest, SplitOffTailKeepsFileOrder) {
  ImageSet set = test_set(10);
  const ImageSet tail = split_off_tail(&set, 0.25);
  EXPECT_EQ(set.size(), 8);
  ASSERT_EQ(tail.size(), 2);
  EXPECT_TRUE(same(tail.images[0].flatten(), test_image(8, 784)));
  EXPECT_TRUE(same(set.images[7].flatten(), test_image(7, 784)));
}

}  // namespace
}  // namespace moe::data::test
