// A file a run appends lines to (metrics.jsonl, stderr.log). Plain POSIX calls rather than a
// stream, so that every failure is seen with its cause: a failed or short write (disk full,
// read-only file system, I/O error), a failed fsync or close, or the file removed under the run.
#pragma once

#include <string>
#include <string_view>

namespace moe::protocol {

class AppendFile {
 public:
  AppendFile() = default;
  // Opens `path` for appending, creating it; std::runtime_error naming the path and the cause when
  // it cannot.
  explicit AppendFile(const std::string& path);
  ~AppendFile();  // closes; a close error here is lost, so call close() where it matters
  AppendFile(AppendFile&& other) noexcept;
  AppendFile& operator=(AppendFile&& other) noexcept;
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

  // Appends `text` whole. On failure returns false and error() says why; the file is cut back to
  // where it was, so it never ends in half a line, and nothing more is written to it.
  bool append(std::string_view text);
  // Fails (and sets error()) when the file is no longer at its path: removed, or replaced.
  bool check_in_place();
  // Forces what was written to disk (errors of delayed allocation, quotas, NFS show up here).
  bool sync();
  // Closes the file; false with error() set when the close reports an error.
  bool close();

  // "" while every call succeeded, else "<path>: <what failed>: <cause>" of the first failure.
  const std::string& error() const { return error_; }

 private:
  // Records the first failure; err 0 adds no cause.
  bool fail(const std::string& what, int err);

  std::string path_;
  int fd_ = -1;
  std::string error_;
};

}  // namespace moe::protocol
