#include "data/window_source.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "data/gz_file.h"
#include "data/seeding.h"

namespace moe::data {
namespace {

using json = nlohmann::json;

class WindowSource : public BatchSource {
 public:
  WindowSource(std::shared_ptr<const TokenStream> tokens, WindowSourceSpec spec, int64_t train)
      : tokens_(std::move(tokens)),
        spec_(std::move(spec)),
        size_(tokens_->size()),
        train_(train),
        window_(spec_.seq_len + 1) {}

  Batch next_train(int64_t batch_size) override {
    check_batch_size(batch_size);
    std::mt19937_64 rng(mix_seed(spec_.seed, Stream::kTrain, static_cast<uint64_t>(batch_)));
    std::vector<int64_t> offsets(static_cast<size_t>(batch_size));
    const auto starts = static_cast<uint64_t>(train_ - window_ + 1);
    for (int64_t& o : offsets) o = static_cast<int64_t>(uniform_below(rng, starts));
    ++batch_;
    return windows(offsets);
  }

  // Reads only the immutable stream (safe next to a prefetching next_train).
  Batch eval_batch(int64_t index, int64_t batch_size) override {
    const int64_t count = eval_batch_count(batch_size);
    if (index < 0 || index >= count) {
      throw std::out_of_range("eval batch " + std::to_string(index) + " of " +
                              std::to_string(count));
    }
    const int64_t first = index * batch_size;
    const int64_t last = std::min(held_windows(), first + batch_size);
    std::vector<int64_t> offsets;
    for (int64_t w = first; w < last; ++w) offsets.push_back(train_ + w * window_);
    return windows(offsets);
  }

  int64_t eval_batch_count(int64_t batch_size) const override {
    check_batch_size(batch_size);
    return (held_windows() + batch_size - 1) / batch_size;
  }

  int64_t train_samples() const override { return train_ / window_; }

  json position() const override { return {{"batch", batch_}}; }

  void seek(const json& position) override {
    if (!position.is_object() || !position.contains("batch") ||
        !position["batch"].is_number_integer() || position["batch"].get<int64_t>() < 0) {
      throw DataError(spec_.what + ": bad data position " + position.dump() +
                      " (expected {\"batch\": i}, i >= 0)");
    }
    batch_ = position["batch"].get<int64_t>();
  }

  std::string describe() const override {
    return spec_.what + ": " + std::to_string(size_) + " " + spec_.unit + ", " +
           std::to_string(train_) + " train, " + std::to_string(size_ - train_) + " held out (" +
           std::to_string(held_windows()) + " windows of " + std::to_string(window_) + ")";
  }

 private:
  static void check_batch_size(int64_t batch_size) {
    if (batch_size < 1) throw std::invalid_argument("batch_size must be >= 1");
  }

  int64_t held_windows() const { return (size_ - train_) / window_; }

  // Windows of window_ tokens at `offsets`: inputs are the first seq_len, targets the last.
  Batch windows(const std::vector<int64_t>& offsets) const {
    const auto rows = static_cast<int64_t>(offsets.size());
    at::Tensor w = at::empty({rows, window_}, at::kLong);
    int64_t* out = w.data_ptr<int64_t>();
    for (int64_t r = 0; r < rows; ++r) tokens_->copy(offsets[r], window_, out + r * window_);
    const int64_t T = window_ - 1;
    return {w.narrow(1, 0, T).contiguous(), w.narrow(1, 1, T).contiguous()};
  }

  const std::shared_ptr<const TokenStream> tokens_;
  const WindowSourceSpec spec_;
  const int64_t size_, train_, window_;
  int64_t batch_ = 0;
};

}  // namespace

std::unique_ptr<BatchSource> make_window_source(std::shared_ptr<const TokenStream> tokens,
                                                const WindowSourceSpec& spec) {
  const int64_t n = tokens->size();
  const std::string& unit = spec.unit;
  if (n == 0) fail_file(spec.path, "empty (needs at least seq_len + 1 " + unit + ")");
  const int64_t window = spec.seq_len + 1;
  const auto held = static_cast<int64_t>(std::floor(static_cast<double>(n) * spec.val_fraction));
  const int64_t train = n - held;
  const auto too_short = [&](const std::string& part, int64_t size, const std::string& advice) {
    fail_file(spec.path,
              part + " is " + std::to_string(size) + " of " + std::to_string(n) + " " + unit +
                  ", shorter than one window of seq_len + 1 = " + std::to_string(window) + " " +
                  unit + "; use a smaller model.seq_len" + advice);
  };
  if (train < window) too_short("the training part", train, " or data.val_fraction");
  if (held > 0 && held < window) {
    too_short("the held-out part (data.val_fraction " + std::to_string(spec.val_fraction) + ")",
              held, ", a larger data.val_fraction, or 0 for no evaluation");
  }
  return std::make_unique<WindowSource>(std::move(tokens), spec, train);
}

}  // namespace moe::data
