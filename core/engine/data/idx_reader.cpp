#include "data/idx_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "data/gz_file.h"

namespace moe::data {
namespace {

constexpr uint32_t kImagesMagic = 0x00000803;  // unsigned bytes, 3 dimensions
constexpr uint32_t kLabelsMagic = 0x00000801;  // unsigned bytes, 1 dimension
constexpr int64_t kSide = 28;
constexpr int64_t kClasses = 10;

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// The big-endian 32-bit header fields of an IDX file, after checking its magic number and that
// the file holds exactly the header and `payload(fields)` bytes.
template <typename Payload>
std::vector<uint32_t> check_layout(const std::string& path, const std::vector<uint8_t>& bytes,
                                   uint32_t magic, int fields, const char* what, Payload payload) {
  const auto header = static_cast<int64_t>(4 * fields);
  const auto size = static_cast<int64_t>(bytes.size());
  const auto be32 = [&](int i) {
    return (uint32_t{bytes[4 * i]} << 24) | (uint32_t{bytes[4 * i + 1]} << 16) |
           (uint32_t{bytes[4 * i + 2]} << 8) | uint32_t{bytes[4 * i + 3]};
  };
  // The magic number first: a wrong file says so even when it is short.
  if (size >= 4 && be32(0) != magic) {
    fail_file(path, "not an IDX " + std::string(what) + " file: magic number " + hex(be32(0)) +
                        ", expected " + hex(magic));
  }
  if (size < header) {
    fail_file(path, "truncated: an IDX " + std::string(what) + " file has a " +
                        std::to_string(header) + "-byte header, found " + std::to_string(size) +
                        " bytes");
  }
  std::vector<uint32_t> v(static_cast<size_t>(fields));
  for (int i = 0; i < fields; ++i) v[i] = be32(i);
  const auto [expected, description] = payload(v);
  if (size - header != expected) {
    fail_file(path, std::string(size - header < expected ? "truncated" : "too long") +
                        ": expected " + std::to_string(header + expected) + " bytes (" +
                        std::to_string(header) + "-byte header + " + description + "), found " +
                        std::to_string(size));
  }
  return v;
}

// An IDX file read up to what its own header allows: the header and the product of its
// dimensions (one byte each), plus one byte so that a file one byte longer still reads as "too
// long". A short header or another magic number: only the header (check_layout says why).
std::vector<uint8_t> read_idx_file(const std::string& path, uint32_t magic, int fields) {
  const std::vector<uint8_t> head = read_file_start(path, 4 * fields);
  const auto be32 = [&](int i) {
    return (uint32_t{head[4 * i]} << 24) | (uint32_t{head[4 * i + 1]} << 16) |
           (uint32_t{head[4 * i + 2]} << 8) | uint32_t{head[4 * i + 3]};
  };
  if (static_cast<int>(head.size()) < 4 * fields || be32(0) != magic) return head;
  int64_t payload = 1;
  for (int i = 1; i < fields; ++i)  // at most 2^40: no overflow
    payload = std::min<int64_t>(payload * int64_t{be32(i)}, int64_t{1} << 40);
  return read_whole_file(path, 4 * fields + payload + 1,
                         "its IDX header allows (" + std::to_string(payload) + " bytes of data)");
}

}  // namespace

ImageSet read_idx_pair(const std::string& images_path, const std::string& labels_path) {
  const std::vector<uint8_t> image_bytes = read_idx_file(images_path, kImagesMagic, 4);
  // The 28x28 check comes before the size check: it bounds the expected size.
  const auto h = check_layout(images_path, image_bytes, kImagesMagic, 4, "images", [&](auto& v) {
    if (v[2] != kSide || v[3] != kSide) {
      fail_file(images_path, "images are " + std::to_string(v[2]) + "x" + std::to_string(v[3]) +
                                 ", the image model needs 28x28");
    }
    return std::pair{int64_t{v[1]} * kSide * kSide, std::to_string(v[1]) + " images of 28x28"};
  });
  const int64_t n = h[1], rows = kSide, cols = kSide;
  at::Tensor images = at::empty({n, 1, rows, cols}, at::kByte);
  std::memcpy(images.data_ptr<uint8_t>(), image_bytes.data() + 16, n * rows * cols);

  const std::vector<uint8_t> label_bytes = read_idx_file(labels_path, kLabelsMagic, 2);
  const auto l = check_layout(labels_path, label_bytes, kLabelsMagic, 2, "labels", [](auto& v) {
    return std::pair{int64_t{v[1]}, std::to_string(v[1]) + " labels"};
  });
  if (static_cast<int64_t>(l[1]) != n) {
    fail_file(labels_path, "has " + std::to_string(l[1]) + " labels but '" + images_path +
                               "' has " + std::to_string(n) + " images");
  }
  at::Tensor labels = at::empty({n}, at::kLong);
  int64_t* out = labels.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t label = label_bytes[8 + i];
    if (label >= kClasses) {
      fail_file(labels_path, "label " + std::to_string(label) + " at index " + std::to_string(i) +
                                 " is not a class id 0.." + std::to_string(kClasses - 1));
    }
    out[i] = label;
  }
  return {images, labels};
}

IdxData load_idx(const std::string& path) {
  IdxData data;
  data.dir = data_directory(path, "idx");
  const auto find = [&](const std::string& name) { return find_data_file(data.dir, name); };
  const std::string train_images = find("train-images-idx3-ubyte");
  const std::string train_labels = find("train-labels-idx1-ubyte");
  if (train_images.empty() || train_labels.empty()) {
    throw DataError("idx data directory '" + data.dir + "': missing " +
                    (train_images.empty() ? "train-images-idx3-ubyte" : "train-labels-idx1-ubyte") +
                    " (plain or .gz)");
  }
  data.train = read_idx_pair(train_images, train_labels);
  const std::string test_images = find("t10k-images-idx3-ubyte");
  const std::string test_labels = find("t10k-labels-idx1-ubyte");
  if (test_images.empty() != test_labels.empty()) {
    throw DataError("idx data directory '" + data.dir + "': has " +
                    (test_images.empty() ? test_labels : test_images) + " but not its " +
                    (test_images.empty() ? "images" : "labels") + " file");
  }
  if (!test_images.empty()) {
    data.test = read_idx_pair(test_images, test_labels);
    data.has_test = true;
  }
  return data;
}

}  // namespace moe::data
