#include "data/cifar_reader.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "data/gz_file.h"

namespace moe::data {
namespace {

constexpr int64_t kPixels = 3 * 32 * 32;
constexpr int64_t kRecord = 1 + kPixels;
constexpr int kClasses = 10;
// A CIFAR-10 batch file holds 10 000 records; a million (3 GB) is far beyond any real one.
constexpr int64_t kMaxRecords = 1000000;

}  // namespace

ImageSet read_cifar10_file(const std::string& path) {
  const std::vector<uint8_t> bytes =
      read_whole_file(path, kMaxRecords * kRecord,
                      "a CIFAR-10 file is read with (" + std::to_string(kMaxRecords) + " records)");
  const auto size = static_cast<int64_t>(bytes.size());
  if (size == 0) fail_file(path, "empty (expected records of 3073 bytes)");
  if (size % kRecord != 0) {
    fail_file(path, "truncated: " + std::to_string(size) + " bytes is not a whole number of " +
                        std::to_string(kRecord) + "-byte records (" +
                        std::to_string(size / kRecord) + " records + " +
                        std::to_string(size % kRecord) + " bytes)");
  }
  const int64_t n = size / kRecord;
  at::Tensor images = at::empty({n, 3, 32, 32}, at::kByte);
  at::Tensor labels = at::empty({n}, at::kLong);
  uint8_t* pixels = images.data_ptr<uint8_t>();
  int64_t* out = labels.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* record = bytes.data() + i * kRecord;
    if (record[0] >= kClasses) {
      fail_file(path, "record " + std::to_string(i) + " has label " + std::to_string(record[0]) +
                          ", expected a class id 0..9");
    }
    out[i] = record[0];
    std::memcpy(pixels + i * kPixels, record + 1, kPixels);  // already C, H, W order
  }
  return {images, labels};
}

CifarData load_cifar10(const std::string& path) {
  CifarData data;
  data.dir = data_directory(path, "cifar10");
  std::vector<at::Tensor> images, labels;
  for (int k = 1; k <= 5; ++k) {
    const std::string name = "data_batch_" + std::to_string(k) + ".bin";
    const std::string file = find_data_file(data.dir, name);
    if (file.empty()) {
      if (k == 1) throw DataError("cifar10 data directory '" + data.dir + "': missing " + name);
      continue;
    }
    ImageSet part = read_cifar10_file(file);
    images.push_back(part.images);
    labels.push_back(part.labels);
    ++data.train_files;
  }
  data.train = {at::cat(images), at::cat(labels)};
  const std::string test = find_data_file(data.dir, "test_batch.bin");
  if (!test.empty()) {
    data.test = read_cifar10_file(test);
    data.has_test = true;
  }
  return data;
}

}  // namespace moe::data
