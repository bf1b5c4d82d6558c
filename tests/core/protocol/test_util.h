// Helpers shared by the protocol tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "protocol/config_error.h"

namespace moe::protocol::testing {

// A fresh directory per test, removed at the end.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("moe-protocol-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" +
             info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

inline std::vector<std::string> pointers(const std::vector<ConfigProblem>& problems) {
  std::vector<std::string> out;
  for (const ConfigProblem& p : problems) out.push_back(p.pointer);
  return out;
}

inline std::vector<std::string> formatted(const std::vector<ConfigProblem>& problems) {
  std::vector<std::string> out;
  for (const ConfigProblem& p : problems) out.push_back(format_problem(p));
  return out;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace moe::protocol::testing
