#include "process.h"

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace moe::test {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string moe_train_path() {
  return MOE_TRAIN_BIN;
}

MoeTrainProcess::MoeTrainProcess(const std::vector<std::string>& args)
    : MoeTrainProcess(MOE_TRAIN_BIN, args) {}

MoeTrainProcess::MoeTrainProcess(const std::string& program, const std::vector<std::string>& args) {
  static int counter = 0;
  io_ = std::filesystem::temp_directory_path() /
        ("moe-e2e-io-" + std::to_string(getpid()) + "-" + std::to_string(++counter));
  std::filesystem::create_directories(io_);
  const std::string out_path = (io_ / "stdout").string(), err_path = (io_ / "stderr").string();
  std::fflush(stdout);  // or the child would write our pending output a second time
  std::fflush(stderr);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    if (!freopen(out_path.c_str(), "w", stdout) || !freopen(err_path.c_str(), "w", stderr))
      _exit(127);
    std::vector<char*> argv;
    std::string bin = program;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(bin.c_str(), argv.data());  // a program without a slash is looked up in PATH
    _exit(127);
  }
}

MoeTrainProcess::~MoeTrainProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  std::error_code ec;
  std::filesystem::remove_all(io_, ec);
}

void MoeTrainProcess::signal(int sig) {
  if (pid_ > 0) kill(pid_, sig);
}

std::string MoeTrainProcess::out_so_far() const {
  return read_file(io_ / "stdout");
}

ProcessResult MoeTrainProcess::wait() {
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  ProcessResult r;
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(io_ / "stdout");
  r.err = read_file(io_ / "stderr");
  return r;
}

ProcessResult MoeTrainProcess::wait(std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  pid_t done = 0;
  while ((done = waitpid(pid_, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline)
    usleep(20000);
  if (done == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
  ProcessResult r;
  r.exit_status = done == 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(io_ / "stdout");
  r.err = read_file(io_ / "stderr");
  return r;
}

ProcessResult run_moe_train(const std::vector<std::string>& args) {
  return MoeTrainProcess(args).wait();
}

ProcessResult run_program(const std::string& program, const std::vector<std::string>& args) {
  return MoeTrainProcess(program, args).wait();
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() / ("moe-e2e-" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& text) const {
  const auto p = file(name);
  std::ofstream(p) << text;
  return p;
}

}  // namespace moe::test
