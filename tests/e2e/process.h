#pragma once
// Runs moe-train as a child process and captures its exit status, stdout and stderr.
#include <filesystem>
#include <string>
#include <vector>

namespace moe::test {

struct ProcessResult {
  int exit_status = -1;
  std::string out, err;
};

ProcessResult run_moe_train(const std::vector<std::string>& args);

// A fresh directory under the system temp dir, removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::filesystem::path path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes text to name and returns its path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

}  // namespace moe::test
