#include "data/text_source.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "data/gz_file.h"
#include "data/seeding.h"

namespace moe::data {
namespace {

using json = nlohmann::json;

class TextSource : public BatchSource {
 public:
  TextSource(std::string path, at::Tensor bytes, int64_t train_bytes, int64_t seq_len,
             uint64_t seed)
      : path_(std::move(path)),
        bytes_(std::move(bytes)),
        train_bytes_(train_bytes),
        window_(seq_len + 1),
        seed_(seed) {}

  Batch next_train(int64_t batch_size) override {
    check_batch_size(batch_size);
    std::mt19937_64 rng(mix_seed(seed_, Stream::kTrain, static_cast<uint64_t>(batch_)));
    std::vector<int64_t> offsets(static_cast<size_t>(batch_size));
    const auto starts = static_cast<uint64_t>(train_bytes_ - window_ + 1);
    for (int64_t& o : offsets) o = static_cast<int64_t>(uniform_below(rng, starts));
    ++batch_;
    return windows(at::tensor(offsets, at::kLong));
  }

  // Reads only the immutable bytes (safe next to a prefetching next_train).
  Batch eval_batch(int64_t index, int64_t batch_size) override {
    const int64_t count = eval_batch_count(batch_size);
    if (index < 0 || index >= count) {
      throw std::out_of_range("eval batch " + std::to_string(index) + " of " +
                              std::to_string(count));
    }
    const int64_t first = index * batch_size;
    const int64_t last = std::min(held_windows(), first + batch_size);
    return windows(at::arange(first, last, at::kLong).mul_(window_).add_(train_bytes_));
  }

  int64_t eval_batch_count(int64_t batch_size) const override {
    check_batch_size(batch_size);
    return (held_windows() + batch_size - 1) / batch_size;
  }

  int64_t train_samples() const override { return train_bytes_ / window_; }

  json position() const override { return {{"batch", batch_}}; }

  void seek(const json& position) override {
    if (!position.is_object() || !position.contains("batch") ||
        !position["batch"].is_number_integer() || position["batch"].get<int64_t>() < 0) {
      throw DataError("text data '" + path_ + "': bad data position " + position.dump() +
                      " (expected {\"batch\": i}, i >= 0)");
    }
    batch_ = position["batch"].get<int64_t>();
  }

  std::string describe() const override {
    return "text '" + path_ + "': " + std::to_string(bytes_.numel()) + " bytes, " +
           std::to_string(train_bytes_) + " train, " +
           std::to_string(bytes_.numel() - train_bytes_) + " held out (" +
           std::to_string(held_windows()) + " windows of " + std::to_string(window_) + ")";
  }

 private:
  static void check_batch_size(int64_t batch_size) {
    if (batch_size < 1) throw std::invalid_argument("batch_size must be >= 1");
  }

  int64_t held_windows() const { return (bytes_.numel() - train_bytes_) / window_; }

  // Windows of window_ bytes at `offsets`: inputs are the first seq_len, targets the last.
  Batch windows(const at::Tensor& offsets) const {
    const at::Tensor index = offsets.unsqueeze(1) + at::arange(window_, at::kLong).unsqueeze(0);
    const at::Tensor w = bytes_.index_select(0, index.flatten()).view(index.sizes()).to(at::kLong);
    const int64_t T = window_ - 1;
    return {w.narrow(1, 0, T).contiguous(), w.narrow(1, 1, T).contiguous()};
  }

  const std::string path_;
  const at::Tensor bytes_;  // uint8 [n], the whole file
  const int64_t train_bytes_, window_;
  const uint64_t seed_;
  int64_t batch_ = 0;
};

// The file's bytes as they are (no gzip inflation: any file is text here).
std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail_file(path, "cannot open");
  std::vector<uint8_t> bytes(static_cast<size_t>(in.tellg()));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
    fail_file(path, "read error");
  }
  return bytes;
}

// A file's bytes, or for a directory every regular file below it in path order, one after the
// other (a folder of documents is one corpus).
std::vector<uint8_t> read_text(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return read_bytes(path);
  if (!fs::is_directory(path, ec)) fail_file(path, "not found (or not a file or directory)");
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
    if (entry.is_regular_file(ec)) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<uint8_t> all;
  for (const auto& file : files) {
    std::vector<uint8_t> bytes = read_bytes(file);
    all.insert(all.end(), bytes.begin(), bytes.end());
  }
  return all;
}

}  // namespace

std::unique_ptr<BatchSource> make_text_source(const std::string& path, int64_t seq_len,
                                              double val_fraction, uint64_t seed) {
  const std::vector<uint8_t> content = read_text(path);
  const auto n = static_cast<int64_t>(content.size());
  if (n == 0) fail_file(path, "empty (text data needs at least seq_len + 1 bytes)");
  const int64_t window = seq_len + 1;
  const auto held = static_cast<int64_t>(std::floor(static_cast<double>(n) * val_fraction));
  const int64_t train = n - held;
  const auto too_short = [&](const std::string& part, int64_t size, const std::string& advice) {
    fail_file(path, part + " is " + std::to_string(size) + " of " + std::to_string(n) +
                        " bytes, shorter than one window of seq_len + 1 = " +
                        std::to_string(window) + " bytes; use a smaller model.seq_len" + advice);
  };
  if (train < window) too_short("the training part", train, " or data.val_fraction");
  if (held > 0 && held < window) {
    too_short("the held-out part (data.val_fraction " + std::to_string(val_fraction) + ")", held,
              ", a larger data.val_fraction, or 0 for no evaluation");
  }
  at::Tensor bytes = at::empty({n}, at::kByte);
  std::memcpy(bytes.data_ptr<uint8_t>(), content.data(), static_cast<size_t>(n));
  return std::make_unique<TextSource>(path, std::move(bytes), train, seq_len, seed);
}

}  // namespace moe::data
