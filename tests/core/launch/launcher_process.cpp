#include "launcher_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace moe::launch::test {

bool wait_for(const std::function<bool()>& done, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

bool process_running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t paren = line.rfind(')');  // the state follows the command name in parentheses
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z' &&
         line[paren + 2] != 'X';
}

pid_t pid_in(const std::string& path) {
  const std::string text = read_file(path);
  if (text.empty() || text.back() != '\n') return -1;
  return static_cast<pid_t>(std::stol(text));
}

LaunchOptions shell_ranks(int64_t ranks, const std::string& script) {
  LaunchOptions o;
  o.executable = "/bin/sh";
  o.args = {"-c", script};
  o.nproc_per_node = ranks;
  return o;
}

LauncherProcess::LauncherProcess(const LaunchOptions& options, const TempDir& dir)
    : out_path_(dir.file("launcher.out")), err_path_(dir.file("launcher.err")) {
  std::fflush(stdout);  // or the child would write our pending output a second time
  std::fflush(stderr);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ > 0) return;
  if (!freopen(out_path_.c_str(), "w", stdout) || !freopen(err_path_.c_str(), "w", stderr))
    _exit(126);
  int status = 1;
  try {
    status = launch(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "launch threw: %s\n", e.what());
  }
  std::fflush(stderr);
  _exit(status);
}

LauncherProcess::~LauncherProcess() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

void LauncherProcess::signal(int sig) const {
  if (pid_ > 0) kill(pid_, sig);  // never kill(-1, ...): that reaches every process
}

LaunchResult LauncherProcess::wait(std::chrono::seconds limit) {
  LaunchResult r;
  int status = 0;
  const bool ended = wait_for([&] { return waitpid(pid_, &status, WNOHANG) == pid_; }, limit);
  if (!ended) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  } else {
    r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  pid_ = -1;
  r.out = read_file(out_path_);
  r.err = read_file(err_path_);
  return r;
}

}  // namespace moe::launch::test
