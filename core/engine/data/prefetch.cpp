// prefetch(): a worker thread keeps up to `depth` training batches ready (see batch_source.h).
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "data/batch_source.h"

namespace moe::data {
namespace {

using json = nlohmann::json;

// The trainer handles std::exception; anything else a source throws (an int, a string) would
// end the process in std::terminate. Wrap it.
std::exception_ptr as_std_exception(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception&) {
    return error;
  } catch (...) {
    return std::make_exception_ptr(
        std::runtime_error("data source: an exception that is not a std::exception"));
  }
}

class PrefetchSource : public BatchSource {
 public:
  PrefetchSource(std::unique_ptr<BatchSource> inner, int64_t batch_size, int depth)
      : inner_(std::move(inner)), batch_size_(batch_size), depth_(depth) {
    if (!inner_) throw std::logic_error("prefetch: no inner source");
    if (batch_size < 1 || depth < 1) {
      throw std::logic_error("prefetch: batch_size and depth must be >= 1");
    }
    position_ = inner_->position();
    start();
  }

  ~PrefetchSource() override { stop(); }

  Batch next_train(int64_t batch_size) override {
    if (batch_size != batch_size_) {
      throw std::logic_error("prefetch: next_train(" + std::to_string(batch_size) +
                             ") on a source prefetching batches of " + std::to_string(batch_size_));
    }
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !queue_.empty() || !working_; });
    // Never wait for a worker that is gone (a thread that could not start): nothing would come.
    if (queue_.empty()) throw std::runtime_error("prefetch: the loading thread is not running");
    Item& front = queue_.front();
    // An error stays at the front: every later call rethrows it (the worker has stopped).
    if (front.error) std::rethrow_exception(front.error);
    Item item = std::move(front);
    queue_.pop_front();
    position_ = std::move(item.position);
    space_.notify_one();
    return std::move(item.batch);
  }

  Batch eval_batch(int64_t index, int64_t batch_size) override {
    return inner_->eval_batch(index, batch_size);
  }
  int64_t eval_batch_count(int64_t batch_size) const override {
    return inner_->eval_batch_count(batch_size);
  }
  int64_t train_samples() const override { return inner_->train_samples(); }
  std::string describe() const override { return inner_->describe(); }

  json position() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return position_;
  }

  void seek(const json& position) override {
    stop();
    queue_.clear();
    try {
      inner_->seek(position);
      position_ = inner_->position();
    } catch (...) {
      const std::exception_ptr error = as_std_exception(std::current_exception());
      try {
        // Leave the stream where the caller was before the failed seek.
        inner_->seek(position_);
      } catch (...) {
        // The stream is nowhere now: no worker, and every next_train rethrows the seek's error
        // instead of waiting for a batch that never comes.
        queue_.push_back(Item{{}, {}, error});
        std::rethrow_exception(error);
      }
      start();
      std::rethrow_exception(error);
    }
    start();
  }

 private:
  struct Item {
    Batch batch;
    json position;  // the inner source's position after this batch
    std::exception_ptr error;
  };

  void start() {
    stopping_ = false;
    working_ = true;
    try {
      worker_ = std::thread([this] {
        work();
        {
          std::lock_guard<std::mutex> lock(mutex_);
          working_ = false;
        }
        ready_.notify_all();
      });
    } catch (...) {
      working_ = false;
      throw;
    }
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    space_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  void work() {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        space_.wait(lock, [&] { return stopping_ || static_cast<int>(queue_.size()) < depth_; });
        if (stopping_) return;
      }
      // Outside the lock: the consumer takes queued batches while this one is made.
      Item item;
      try {
        item.batch = inner_->next_train(batch_size_);
        item.position = inner_->position();
      } catch (...) {
        item.error = as_std_exception(std::current_exception());
      }
      const bool failed = item.error != nullptr;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(item));
      }
      ready_.notify_one();
      if (failed) return;
    }
  }

  const std::unique_ptr<BatchSource> inner_;
  const int64_t batch_size_;
  const int depth_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;  // queue_ got an item
  std::condition_variable space_;  // queue_ has room, or stopping_
  std::deque<Item> queue_;
  json position_;  // after the last batch next_train returned
  bool stopping_ = false;
  bool working_ = false;  // the worker thread runs (set by start, cleared as it returns)
  std::thread worker_;
};

}  // namespace

std::unique_ptr<BatchSource> prefetch(std::unique_ptr<BatchSource> inner, int64_t batch_size,
                                      int depth) {
  return std::make_unique<PrefetchSource>(std::move(inner), batch_size, depth);
}

}  // namespace moe::data
