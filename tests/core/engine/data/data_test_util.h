#pragma once
// Shared helpers for the data tests: a scratch directory per test, writers for IDX and CIFAR-10
// files (plain or gzipped), configs and batch comparison.

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "data/batch_source.h"

namespace moe::data::test {

using Bytes = std::vector<uint8_t>;

inline void write_file(const std::string& path, const Bytes& bytes, bool gzip = false) {
  std::filesystem::remove(path);
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr) << path;
    if (!bytes.empty()) {
      ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
                static_cast<int>(bytes.size()));
    }
    ASSERT_EQ(gzclose(f), Z_OK);
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

inline Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void put_be32(Bytes* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<uint8_t>(v >> shift));
}

// Pixel `k` of image `i` of a test set. Pixel 0 is 37 i mod 256: distinct for the first 256
// images, so a batch row tells which image it is.
inline uint8_t test_pixel(int64_t i, int64_t k) {
  return static_cast<uint8_t>((i * 37 + k * 11 + (k % 5) * (k % 3)) % 256);
}
inline uint8_t test_label(int64_t i) {
  return static_cast<uint8_t>((i * 3 + 1) % 10);
}

// An IDX images file of n images of rows x cols with test_pixel values.
inline Bytes idx_images(int64_t n, uint32_t rows = 28, uint32_t cols = 28, int64_t first = 0) {
  Bytes out;
  put_be32(&out, 0x00000803);
  put_be32(&out, static_cast<uint32_t>(n));
  put_be32(&out, rows);
  put_be32(&out, cols);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < int64_t{rows} * cols; ++k) out.push_back(test_pixel(first + i, k));
  return out;
}

inline Bytes idx_labels(int64_t n, int64_t first = 0) {
  Bytes out;
  put_be32(&out, 0x00000801);
  put_be32(&out, static_cast<uint32_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(test_label(first + i));
  return out;
}

// n CIFAR-10 records: label test_label(first + i), pixels test_pixel(first + i, k).
inline Bytes cifar_records(int64_t n, int64_t first = 0) {
  Bytes out;
  for (int64_t i = 0; i < n; ++i) {
    out.push_back(test_label(first + i));
    for (int64_t k = 0; k < 3072; ++k) out.push_back(test_pixel(first + i, k));
  }
  return out;
}

// The raw pixels of test image i, as a uint8 tensor of `pixels` values.
inline at::Tensor test_image(int64_t i, int64_t pixels) {
  at::Tensor t = at::empty({pixels}, at::kByte);
  for (int64_t k = 0; k < pixels; ++k) t[k] = test_pixel(i, k);
  return t;
}

inline bool same(const at::Tensor& a, const at::Tensor& b) {
  return a.defined() && b.defined() && a.scalar_type() == b.scalar_type() &&
         a.sizes() == b.sizes() && at::equal(a, b);
}
inline bool same(const Batch& a, const Batch& b) {
  return same(a.inputs, b.inputs) && same(a.targets, b.targets);
}

// Runs `f` expecting a DataError whose message contains every one of `parts`.
inline void expect_data_error(const std::function<void()>& f,
                              const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no DataError";
  } catch (const DataError& e) {
    for (const std::string& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "'" << part << "' not in: " << e.what();
  }
}

inline protocol::RunConfig config(const std::string& model, const std::string& data,
                                  const std::string& path = "") {
  protocol::RunConfig c;
  c.model.kind = protocol::enum_from_name<protocol::ModelKind>(model).value();
  c.data.kind = protocol::enum_from_name<protocol::DataKind>(data).value();
  c.data.path = path;
  return c;
}

class DataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "." + info->name();
    for (char& c : name)
      if (c == '/') c = '_';
    dir_ = std::filesystem::temp_directory_path() /
           ("moe_data_tests_" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_.parent_path()); }

  std::string path(const std::string& file = "") const { return (dir_ / file).string(); }

  std::filesystem::path dir_;
};

}  // namespace moe::data::test
