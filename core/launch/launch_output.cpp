#include "launch/launch_output.h"

#include <unistd.h>

#include <cerrno>

namespace moe::launch {

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // stderr is gone: nothing left to tell anyone
    done += static_cast<size_t>(n);
  }
}

PrefixedOutput::PrefixedOutput(int fd, std::string prefix) : fd_(fd), prefix_(std::move(prefix)) {}

PrefixedOutput::PrefixedOutput(PrefixedOutput&& other) noexcept
    : fd_(other.fd_), prefix_(std::move(other.prefix_)), pending_(std::move(other.pending_)) {
  other.fd_ = -1;
}

PrefixedOutput::~PrefixedOutput() {
  close_pipe();
}

void PrefixedOutput::close_pipe() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

void PrefixedOutput::pump() {
  char buffer[4096];
  bool at_end = false;
  while (fd_ >= 0) {
    const ssize_t n = read(fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;  // EAGAIN: nothing more for now
    if (n == 0) {
      at_end = true;
      close_pipe();
      break;
    }
    pending_.append(buffer, static_cast<size_t>(n));
  }
  std::string lines;
  size_t start = 0, end;
  while ((end = pending_.find('\n', start)) != std::string::npos) {
    lines += prefix_ + pending_.substr(start, end + 1 - start);
    start = end + 1;
  }
  pending_.erase(0, start);
  if (at_end && !pending_.empty()) {
    lines += prefix_ + pending_ + "\n";
    pending_.clear();
  }
  write_all(STDERR_FILENO, lines);
}

void PrefixedOutput::finish() {
  pump();
  if (!pending_.empty()) write_all(STDERR_FILENO, prefix_ + pending_ + "\n");
  pending_.clear();
  close_pipe();
}

}  // namespace moe::launch
