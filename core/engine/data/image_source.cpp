#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "data/image_set.h"
#include "data/seeding.h"

namespace moe::data {
namespace {

using json = nlohmann::json;

class ImageSource : public BatchSource {
 public:
  ImageSource(ImageSet train, ImageSet held_out, uint64_t seed, std::string what)
      : train_(std::move(train)), held_(std::move(held_out)), seed_(seed), what_(std::move(what)) {
    if (train_.size() == 0) throw DataError(what_ + ": no training images");
    const ChannelStats stats = channel_stats(train_.images);
    stats_ = stats;
    const int64_t C = train_.images.size(1);
    mean_ = stats.mean.to(at::kFloat).view({C, 1, 1});
    std_ = stats.std.to(at::kFloat).view({C, 1, 1});
    begin_epoch(0);
  }

  Batch next_train(int64_t batch_size) override {
    check_batch_size(batch_size);
    std::vector<int64_t> picks;
    picks.reserve(static_cast<size_t>(batch_size));
    while (static_cast<int64_t>(picks.size()) < batch_size) {
      picks.push_back(order_[static_cast<size_t>(index_++)]);
      // Roll over at once, so a position's index is always < train_samples().
      if (index_ == train_.size()) begin_epoch(epoch_ + 1);
    }
    return gather(train_, at::tensor(picks, at::kLong));
  }

  // Reads only the immutable held-out set (safe next to a prefetching next_train).
  Batch eval_batch(int64_t index, int64_t batch_size) override {
    check_batch_size(batch_size);
    if (index < 0 || index >= eval_batch_count(batch_size)) {
      throw std::out_of_range("eval batch " + std::to_string(index) + " of " +
                              std::to_string(eval_batch_count(batch_size)));
    }
    const int64_t begin = index * batch_size;
    const int64_t end = std::min(held_.size(), begin + batch_size);
    return gather(held_, at::arange(begin, end, at::kLong));
  }

  int64_t eval_batch_count(int64_t batch_size) const override {
    check_batch_size(batch_size);
    return (held_.size() + batch_size - 1) / batch_size;
  }

  int64_t train_samples() const override { return train_.size(); }

  json position() const override { return {{"epoch", epoch_}, {"index", index_}}; }

  void seek(const json& position) override {
    const auto field = [&](const char* key) {
      if (!position.is_object() || !position.contains(key) || !position[key].is_number_integer() ||
          position[key].get<int64_t>() < 0) {
        throw DataError(what_ + ": bad data position " + position.dump() +
                        " (expected {\"epoch\": e, \"index\": i}, both >= 0)");
      }
      return position[key].get<int64_t>();
    };
    const int64_t epoch = field("epoch"), index = field("index");
    if (index > train_.size()) {
      throw DataError(what_ + ": data position " + position.dump() + " is past the " +
                      std::to_string(train_.size()) + " training samples (different data?)");
    }
    begin_epoch(epoch);
    index_ = index;
    if (index_ == train_.size()) begin_epoch(epoch_ + 1);  // the end of an epoch
  }

  std::string describe() const override {
    const auto& s = train_.images.sizes();
    std::string text = what_ + ": " + std::to_string(train_.size()) + " train, " +
                       std::to_string(held_.size()) + " held out, " + std::to_string(s[1]) + "x" +
                       std::to_string(s[2]) + "x" + std::to_string(s[3]) + ", mean/std";
    for (int64_t c = 0; c < s[1]; ++c) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " %.4f/%.4f", stats_.mean[c].item<double>(),
                    stats_.std[c].item<double>());
      text += buf;
    }
    return text;
  }

 private:
  static void check_batch_size(int64_t batch_size) {
    if (batch_size < 1) throw std::invalid_argument("batch_size must be >= 1");
  }

  void begin_epoch(int64_t epoch) {
    std::mt19937_64 rng(mix_seed(seed_, Stream::kEpoch, static_cast<uint64_t>(epoch)));
    order_ = permutation(train_.size(), rng);
    epoch_ = epoch;
    index_ = 0;
  }

  Batch gather(const ImageSet& set, const at::Tensor& rows) const {
    at::Tensor x = set.images.index_select(0, rows).to(at::kFloat).div_(255.0);
    x.sub_(mean_).div_(std_);
    return {x, set.labels.index_select(0, rows)};
  }

  const ImageSet train_, held_;
  const uint64_t seed_;
  const std::string what_;
  ChannelStats stats_;
  at::Tensor mean_, std_;       // float32 [C, 1, 1]
  std::vector<int64_t> order_;  // epoch_'s permutation of the training samples
  int64_t epoch_ = 0, index_ = 0;
};

}  // namespace

ImageSet split_off_tail(ImageSet* set, double fraction) {
  const int64_t n = set->size();
  const auto held = static_cast<int64_t>(std::floor(static_cast<double>(n) * fraction));
  ImageSet tail{set->images.narrow(0, n - held, held), set->labels.narrow(0, n - held, held)};
  set->images = set->images.narrow(0, 0, n - held);
  set->labels = set->labels.narrow(0, 0, n - held);
  return tail;
}

ChannelStats channel_stats(const at::Tensor& images) {
  const at::Tensor x = images.contiguous();
  const int64_t N = x.size(0), C = x.size(1), plane = x.size(2) * x.size(3);
  const uint8_t* p = x.data_ptr<uint8_t>();
  std::vector<std::array<int64_t, 256>> hist(static_cast<size_t>(C));
  for (auto& h : hist) h.fill(0);
  for (int64_t i = 0; i < N; ++i) {
    for (int64_t c = 0; c < C; ++c) {
      auto& h = hist[static_cast<size_t>(c)];
      const uint8_t* q = p + (i * C + c) * plane;
      for (int64_t k = 0; k < plane; ++k) ++h[q[k]];
    }
  }
  ChannelStats stats{at::zeros({C}, at::kDouble), at::ones({C}, at::kDouble)};
  for (int64_t c = 0; c < C; ++c) {
    double count = 0, sum = 0;
    for (int v = 0; v < 256; ++v) {
      count += static_cast<double>(hist[c][v]);
      sum += static_cast<double>(hist[c][v]) * (v / 255.0);
    }
    const double mean = count > 0 ? sum / count : 0.0;
    double var = 0;
    for (int v = 0; v < 256; ++v) {
      var += static_cast<double>(hist[c][v]) * (v / 255.0 - mean) * (v / 255.0 - mean);
    }
    const double sd = count > 0 ? std::sqrt(var / count) : 0.0;
    stats.mean[c] = mean;
    stats.std[c] = sd > 0 ? sd : 1.0;  // constant images: leave the scale alone
  }
  return stats;
}

std::unique_ptr<BatchSource> make_image_source(ImageSet train, ImageSet held_out, uint64_t seed,
                                               std::string what) {
  return std::make_unique<ImageSource>(std::move(train), std::move(held_out), seed,
                                       std::move(what));
}

}  // namespace moe::data
