#pragma once
// Shared helpers for the safetensors tests: a scratch directory per test and raw file assembly.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "io/safetensors.h"

namespace moe::io::test {

// The 8-byte little-endian header length of the format.
inline std::string le64(std::uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  // A fresh file, not a truncated one: ext4 flushes files that are truncated and rewritten.
  std::filesystem::remove(path);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class SafetensorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "." + info->name();
    for (char& c : name)
      if (c == '/') c = '_';
    dir_ = std::filesystem::temp_directory_path() / ("moe_io_tests_" + std::to_string(::getpid())) /
           name;
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_.parent_path()); }

  std::string path(const std::string& file) const { return (dir_ / file).string(); }

  // Names of the files in the scratch directory.
  std::set<std::string> listing() const {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      names.insert(e.path().filename().string());
    return names;
  }

  // Writes header length + header + data to a file and returns its path.
  std::string make_file(const std::string& header, const std::string& data = "",
                        const std::string& file = "f.safetensors") {
    return make_raw(le64(header.size()) + header + data, file);
  }
  std::string make_raw(const std::string& bytes, const std::string& file = "f.safetensors") {
    const std::string p = path(file);
    write_bytes(p, bytes);
    return p;
  }

  // Expects read_safetensors(file) to throw SafetensorsError naming the file and containing
  // every fragment; returns the message.
  static std::string expect_read_error(const std::string& file,
                                       const std::vector<std::string>& fragments = {}) {
    try {
      read_safetensors(file);
    } catch (const SafetensorsError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(file), std::string::npos) << "message does not name the file: " << msg;
      for (const std::string& f : fragments)
        EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in: " << msg;
      return msg;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "expected SafetensorsError, got another exception: " << e.what();
      return "";
    }
    ADD_FAILURE() << "expected SafetensorsError for " << file << ", but reading succeeded";
    return "";
  }

  std::filesystem::path dir_;
};

}  // namespace moe::io::test
