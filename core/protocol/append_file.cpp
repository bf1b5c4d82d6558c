#include "protocol/append_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace moe::protocol {

AppendFile::AppendFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw std::runtime_error(path + ": cannot open for appending: " + std::strerror(errno));
  }
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

AppendFile::AppendFile(AppendFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      error_(std::move(other.error_)) {}

AppendFile& AppendFile::operator=(AppendFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    error_ = std::move(other.error_);
  }
  return *this;
}

bool AppendFile::fail(const std::string& what, int err) {
  if (error_.empty())
    error_ = path_ + ": " + what + (err ? std::string(": ") + std::strerror(err) : "");
  return false;
}

bool AppendFile::append(std::string_view text) {
  if (fd_ < 0 || !error_.empty()) return false;
  // Where the file ends now: a failed write is cut back to here (O_APPEND writes at the end).
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;  // a write of 0 bytes makes no progress
      if (before >= 0 && ::ftruncate(fd_, before) != 0) {
        // Best effort: the error below is what matters.
      }
      return fail("write failed", err);
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool AppendFile::check_in_place() {
  if (fd_ < 0 || !error_.empty()) return error_.empty();
  struct stat open_file;
  struct stat at_path;
  if (::fstat(fd_, &open_file) != 0) return fail("cannot stat", errno);
  if (open_file.st_nlink == 0) return fail("removed while the run was writing it", 0);
  if (::stat(path_.c_str(), &at_path) != 0) return fail("no longer there", errno);
  if (at_path.st_dev != open_file.st_dev || at_path.st_ino != open_file.st_ino) {
    return fail("replaced while the run was writing it", 0);
  }
  return true;
}

bool AppendFile::sync() {
  if (fd_ < 0 || !error_.empty()) return error_.empty();
  // EINVAL: this kind of file (a pipe, /dev/null) cannot be synced, which loses nothing.
  if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) return fail("fsync failed", errno);
  return true;
}

bool AppendFile::close() {
  if (fd_ < 0) return error_.empty();
  const int rc = ::close(std::exchange(fd_, -1));
  // Linux releases the descriptor even when close fails: never retry it.
  if (rc != 0 && errno != EINTR) return fail("close failed", errno);
  return error_.empty();
}

}  // namespace moe::protocol
