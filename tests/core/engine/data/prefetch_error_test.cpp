// The prefetcher's error paths never hang its caller: whatever the source throws (a DataError, a
// non-std exception) and whenever (the first batch, a middle one, a seek, a seek that cannot even
// go back), next_train and seek return promptly and rethrow it, and the source can be destroyed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <thread>

#include "data/batch_source.h"

namespace moe::data::test {
namespace {

// A source whose next_train throws at batch `fail_at` (-1: never), and whose seek call number
// `fail_seek` (0-based; -1: never) throws, and every later one too if `seeks_keep_failing`.
class ThrowingSource : public BatchSource {
 public:
  struct Script {
    int64_t fail_at = -1;
    bool throw_non_std = false;  // throw an int rather than a DataError
    int fail_seek = -1;
    bool seeks_keep_failing = false;
  };
  explicit ThrowingSource(Script script) : script_(script) {}

  Batch next_train(int64_t batch_size) override {
    if (batch_ == script_.fail_at) {
      if (script_.throw_non_std) throw 42;
      throw DataError("source failure at batch " + std::to_string(batch_));
    }
    return {at::full({batch_size}, batch_++, at::kLong), at::zeros({batch_size}, at::kLong)};
  }
  Batch eval_batch(int64_t, int64_t batch_size) override {
    return {at::zeros({batch_size}, at::kLong), at::zeros({batch_size}, at::kLong)};
  }
  int64_t eval_batch_count(int64_t) const override { return 1; }
  int64_t train_samples() const override { return 0; }
  nlohmann::json position() const override { return {{"batch", batch_}}; }
  void seek(const nlohmann::json& p) override {
    const int call = seeks_++;
    if (call == script_.fail_seek ||
        (script_.seeks_keep_failing && script_.fail_seek >= 0 && call > script_.fail_seek)) {
      throw DataError("source cannot seek");
    }
    batch_ = p.at("batch").get<int64_t>();
  }
  std::string describe() const override { return "throwing"; }

 private:
  const Script script_;
  int64_t batch_ = 0;
  int seeks_ = 0;
};

// Runs `body` on another thread and fails the whole test program if it has not returned after a
// minute: a hang cannot be recovered from (the thread cannot be joined), only reported.
void without_hanging(const std::function<void()>& body) {
  std::promise<void> done;
  auto finished = done.get_future();
  std::thread runner([&] {
    body();
    done.set_value();
  });
  if (finished.wait_for(std::chrono::minutes(1)) != std::future_status::ready) {
    std::fprintf(stderr, "the prefetcher hung\n");
    std::abort();
  }
  runner.join();
}

std::unique_ptr<BatchSource> prefetched(ThrowingSource::Script script, int depth = 2) {
  return prefetch(std::make_unique<ThrowingSource>(script), 1, depth);
}

int64_t batch_id(const Batch& b) {
  return b.inputs[0].item<int64_t>();
}

void expect_message(const std::function<void()>& call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one saying " << needle;
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(PrefetchErrors, SourceThrowsOnTheFirstBatch) {
  without_hanging([] {
    auto source = prefetched({0});
    expect_message([&] { source->next_train(1); }, "source failure at batch 0");
    expect_message([&] { source->next_train(1); }, "source failure at batch 0");  // and stays
  });
}

TEST(PrefetchErrors, SourceThrowsOnAMiddleBatch) {
  without_hanging([] {
    auto source = prefetched({5}, 3);
    for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(batch_id(source->next_train(1)), i);
    expect_message([&] { source->next_train(1); }, "source failure at batch 5");
    EXPECT_EQ(source->position(), (nlohmann::json{{"batch", 5}}));
  });
}

TEST(PrefetchErrors, SomethingThatIsNotAStdExceptionBecomesOne) {
  without_hanging([] {
    auto source = prefetched({2, /*throw_non_std=*/true});
    source->next_train(1);
    source->next_train(1);
    expect_message([&] { source->next_train(1); }, "not a std::exception");
  });
}

TEST(PrefetchErrors, FailedSeekIsRethrownAndTheStreamGoesOn) {
  without_hanging([] {
    ThrowingSource::Script script;
    script.fail_seek = 0;  // the seek fails, the way back to where the stream was works
    auto source = prefetched(script);
    EXPECT_EQ(batch_id(source->next_train(1)), 0);
    expect_message([&] { source->seek({{"batch", 7}}); }, "source cannot seek");
    EXPECT_EQ(batch_id(source->next_train(1)), 1);
    EXPECT_EQ(batch_id(source->next_train(1)), 2);
  });
}

TEST(PrefetchErrors, SeekThatCannotGoBackFailsEveryLaterCallPromptly) {
  without_hanging([] {
    ThrowingSource::Script script;
    script.fail_seek = 1;  // the first seek works; the second and the way back fail
    script.seeks_keep_failing = true;
    auto source = prefetched(script);
    source->seek({{"batch", 3}});
    EXPECT_EQ(batch_id(source->next_train(1)), 3);
    expect_message([&] { source->seek({{"batch", 9}}); }, "source cannot seek");
    // No worker and no place in the stream: every next_train says why instead of waiting.
    expect_message([&] { source->next_train(1); }, "source cannot seek");
    expect_message([&] { source->next_train(1); }, "source cannot seek");
  });
}

TEST(PrefetchErrors, SeekAfterAFailedBatchRestartsTheWorker) {
  without_hanging([] {
    auto source = prefetched({2});
    source->next_train(1);
    source->next_train(1);
    expect_message([&] { source->next_train(1); }, "source failure at batch 2");
    source->seek({{"batch", 0}});
    EXPECT_EQ(batch_id(source->next_train(1)), 0);
  });
}

TEST(PrefetchErrors, DestroyedWhileTheErrorWaitsInTheQueue) {
  without_hanging([] {
    for (int64_t fail_at : {0, 1, 4}) {
      auto source = prefetched({fail_at}, 4);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // let the worker reach it
    }
  });
}

}  // namespace
}  // namespace moe::data::test
