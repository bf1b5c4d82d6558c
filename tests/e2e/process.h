#pragma once
// Runs moe-train as a child process and captures its exit status, stdout and stderr.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace moe::test {

struct ProcessResult {
  int exit_status = -1;
  std::string out, err;
};

ProcessResult run_moe_train(const std::vector<std::string>& args);
// Another program (looked up in PATH), e.g. mpirun or srun starting moe-train.
ProcessResult run_program(const std::string& program, const std::vector<std::string>& args);
// The moe-train executable the tests run.
std::string moe_train_path();

// The whole file at `path` as it is now (empty when it cannot be read).
std::string read_file(const std::filesystem::path& path);

// moe-train started in the background, for tests that signal or kill a running process.
class MoeTrainProcess {
 public:
  explicit MoeTrainProcess(const std::vector<std::string>& args);
  MoeTrainProcess(const std::string& program, const std::vector<std::string>& args);
  ~MoeTrainProcess();  // kills the child if it still runs
  void signal(int sig);
  // Waits for the exit and returns what the process printed.
  ProcessResult wait();
  // The same, but a process still running after `limit` is killed: exit_status -1 then.
  ProcessResult wait(std::chrono::seconds limit);
  // The output so far (the child writes it to files).
  std::string out_so_far() const;

 private:
  std::filesystem::path io_;
  int pid_ = -1;
};

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
