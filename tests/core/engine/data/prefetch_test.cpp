// prefetch(): the same batches and positions as the inner source, exact seek, errors rethrown in
// order, and a clean stop at any point.
#include <atomic>
#include <chrono>
#include <thread>

#include "data/image_set.h"
#include "data_test_util.h"

namespace moe::data::test {
namespace {

std::unique_ptr<BatchSource> images(uint64_t seed = 2) {
  const int64_t n = 11;
  at::Tensor x = at::arange(n * 784, at::kLong).remainder(251).to(at::kByte).view({n, 1, 28, 28});
  ImageSet train{x, at::arange(n, at::kLong).remainder(10)};
  ImageSet held{x.narrow(0, 0, 3), train.labels.narrow(0, 0, 3)};
  return make_image_source(train, held, seed, "test");
}

// Counts batches and fails at batch `fail_at` (DataError), optionally slowly.
class ScriptedSource : public BatchSource {
 public:
  ScriptedSource(int64_t fail_at, std::chrono::milliseconds delay, std::atomic<int>* made)
      : fail_at_(fail_at), delay_(delay), made_(made) {}
  Batch next_train(int64_t batch_size) override {
    std::this_thread::sleep_for(delay_);
    if (batch_ == fail_at_) throw DataError("scripted failure at " + std::to_string(batch_));
    ++*made_;
    return {at::full({batch_size}, batch_++, at::kLong), at::zeros({batch_size}, at::kLong)};
  }
  Batch eval_batch(int64_t index, int64_t batch_size) override {
    return {at::full({batch_size}, -index, at::kLong), at::zeros({batch_size}, at::kLong)};
  }
  int64_t eval_batch_count(int64_t) const override { return 7; }
  int64_t train_samples() const override { return 0; }
  nlohmann::json position() const override { return {{"batch", batch_}}; }
  void seek(const nlohmann::json& p) override { batch_ = p.at("batch").get<int64_t>(); }
  std::string describe() const override { return "scripted"; }

 private:
  const int64_t fail_at_;
  const std::chrono::milliseconds delay_;
  std::atomic<int>* made_;
  int64_t batch_ = 0;
};

TEST(PrefetchTest, SameBatchesAndPositionsAsTheInnerSource) {
  auto plain = images();
  auto ahead = prefetch(images(), 4, 3);
  EXPECT_EQ(ahead->position(), plain->position());
  for (int i = 0; i < 12; ++i) {  // 48 samples: four epochs of 11
    EXPECT_TRUE(same(ahead->next_train(4), plain->next_train(4))) << i;
    EXPECT_EQ(ahead->position(), plain->position()) << i;
  }
  EXPECT_EQ(ahead->train_samples(), 11);
  EXPECT_EQ(ahead->eval_batch_count(2), 2);
  EXPECT_TRUE(same(ahead->eval_batch(1, 2), plain->eval_batch(1, 2)));
  EXPECT_EQ(ahead->describe(), plain->describe());
}

TEST(PrefetchTest, SeekDropsTheQueueAndRestoresTheStream) {
  auto plain = images();
  std::vector<Batch> stream;
  std::vector<nlohmann::json> positions{plain->position()};
  for (int i = 0; i < 10; ++i) {
    stream.push_back(plain->next_train(5));
    positions.push_back(plain->position());
  }
  auto ahead = prefetch(images(), 5);
  for (int from : {3, 7, 0, 9}) {
    SCOPED_TRACE(from);
    ahead->seek(positions[from]);
    EXPECT_EQ(ahead->position(), positions[from]);
    for (int i = from; i < 10; ++i) {
      EXPECT_TRUE(same(ahead->next_train(5), stream[i])) << i;
      EXPECT_EQ(ahead->position(), positions[i + 1]);
    }
  }
  // A bad position leaves the stream where it was.
  ahead->seek(positions[4]);
  expect_data_error([&] { ahead->seek({{"epoch", -1}}); }, {"position"});
  EXPECT_EQ(ahead->position(), positions[4]);
  EXPECT_TRUE(same(ahead->next_train(5), stream[4]));
}

TEST(PrefetchTest, OtherBatchSizeIsALogicError) {
  auto ahead = prefetch(images(), 4);
  EXPECT_THROW(ahead->next_train(5), std::logic_error);
  EXPECT_TRUE(same(ahead->next_train(4), images()->next_train(4)));
  EXPECT_THROW(prefetch(images(), 0), std::logic_error);
}

TEST(PrefetchTest, RethrowsTheInnerErrorAfterTheBatchesBeforeIt) {
  std::atomic<int> made{0};
  auto ahead =
      prefetch(std::make_unique<ScriptedSource>(3, std::chrono::milliseconds(0), &made), 2);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(ahead->next_train(2).inputs[0].item<int64_t>(), i);
  expect_data_error([&] { ahead->next_train(2); }, {"scripted failure at 3"});
  expect_data_error([&] { ahead->next_train(2); }, {"scripted failure at 3"});
  EXPECT_EQ(ahead->position(), (nlohmann::json{{"batch", 3}}));
  // seek restarts the worker after a failure.
  ahead->seek({{"batch", 1}});
  EXPECT_EQ(ahead->next_train(2).inputs[0].item<int64_t>(), 1);
}

// Waits (up to 10 s, for a loaded machine) until `made` reaches `n`, then a little longer to see
// whether it goes past.
int settle(const std::atomic<int>& made, int n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (made.load() < n && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return made.load();
}

TEST(PrefetchTest, StaysBoundedAndWorksAhead) {
  std::atomic<int> made{0};
  auto ahead =
      prefetch(std::make_unique<ScriptedSource>(-1, std::chrono::milliseconds(0), &made), 1, 2);
  EXPECT_EQ(settle(made, 2), 2);  // the queue is full: the worker waits
  ahead->next_train(1);
  EXPECT_EQ(settle(made, 3), 3);
}

// A destructor that hangs fails by the test's ctest timeout; no wall-clock bound here.
TEST(PrefetchTest, DestructsCleanlyMidStream) {
  std::atomic<int> made{0};
  {
    auto slow =
        prefetch(std::make_unique<ScriptedSource>(-1, std::chrono::milliseconds(50), &made), 1);
    slow->next_train(1);  // the worker is now inside a slow next_train or waiting for room
  }
  {
    auto full =
        prefetch(std::make_unique<ScriptedSource>(-1, std::chrono::milliseconds(0), &made), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the queue fills
  }
  { auto untouched = prefetch(images(), 3); }
}

TEST(PrefetchTest, EvalRunsOnTheCallersThreadWhileTheWorkerLoads) {
  auto plain = images();
  auto ahead = prefetch(images(), 3, 1);
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(same(ahead->eval_batch(i % 2, 2), plain->eval_batch(i % 2, 2)));
    EXPECT_TRUE(same(ahead->next_train(3), plain->next_train(3)));
  }
}

}  // namespace
}  // namespace moe::data::test
