#include "launch/launch_signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace moe::launch {
namespace {

volatile sig_atomic_t g_write_fd = -1;

void on_signal(int sig) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(sig);
  // A full pipe drops the byte: the loop still wakes for the ones already there.
  [[maybe_unused]] ssize_t n = write(g_write_fd, &byte, 1);
  errno = saved;
}

}  // namespace

LaunchSignals::LaunchSignals() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe for signals");
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  g_write_fd = write_fd_;
  struct sigaction action = {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  for (int i = 0; i < kCount; ++i) sigaction(kHandled[i], &action, &previous_[i]);
}

LaunchSignals::~LaunchSignals() {
  for (int i = 0; i < kCount; ++i) sigaction(kHandled[i], &previous_[i], nullptr);
  g_write_fd = -1;
  close(read_fd_);
  close(write_fd_);
}

std::vector<int> LaunchSignals::take() {
  std::vector<int> signals;
  unsigned char bytes[64];
  ssize_t n;
  while ((n = read(read_fd_, bytes, sizeof bytes)) > 0 || (n < 0 && errno == EINTR))
    for (ssize_t i = 0; i < n; ++i) signals.push_back(bytes[i]);
  return signals;
}

}  // namespace moe::launch
