#pragma once
// One rank's stdout or stderr, read from a pipe and written to the launcher's stderr a line at a
// time with the rank's prefix, so the lines of several ranks never mix within a line.
#include <string>

namespace moe::launch {

class PrefixedOutput {
 public:
  PrefixedOutput(int fd, std::string prefix);  // owns fd, which must be non-blocking
  ~PrefixedOutput();
  PrefixedOutput(PrefixedOutput&& other) noexcept;
  PrefixedOutput(const PrefixedOutput&) = delete;
  PrefixedOutput& operator=(const PrefixedOutput&) = delete;
  PrefixedOutput& operator=(PrefixedOutput&&) = delete;

  int fd() const { return fd_; }  // -1 once the pipe reached its end
  // Forwards the complete lines that can be read now; at the pipe's end, the rest too.
  void pump();
  // Forwards what is left, a last partial line included, and closes the pipe. For the end of the
  // launch: the rank has exited, though something it started may still hold the pipe open.
  void finish();

 private:
  void close_pipe();
  int fd_;
  std::string prefix_, pending_;
};

// Writes all of text to fd, retrying after interruptions and short writes.
void write_all(int fd, const std::string& text);

}  // namespace moe::launch
