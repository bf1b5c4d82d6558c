#pragma once
// The launcher's signals as bytes on a pipe: SIGINT, SIGTERM, SIGHUP and SIGCHLD wake its poll loop
// instead of interrupting it, and it handles them in order at one place.
#include <csignal>
#include <vector>

namespace moe::launch {

class LaunchSignals {
 public:
  LaunchSignals();   // installs the handlers (one instance at a time); throws std::system_error
  ~LaunchSignals();  // restores the handlers found before
  LaunchSignals(const LaunchSignals&) = delete;
  LaunchSignals& operator=(const LaunchSignals&) = delete;

  int fd() const { return read_fd_; }  // readable when a signal came
  std::vector<int> take();             // the signals received since the last call, in order

  static constexpr int kHandled[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};
  static constexpr int kCount = sizeof kHandled / sizeof kHandled[0];

 private:
  int read_fd_ = -1, write_fd_ = -1;
  struct sigaction previous_[kCount] = {};
};

}  // namespace moe::launch
