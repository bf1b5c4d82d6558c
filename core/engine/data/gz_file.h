#pragma once
// Reading data files through zlib: gzread inflates .gz files and passes plain files through, so
// every reader handles both. Every failure is a DataError naming the file.
#include <cstdint>
#include <string>
#include <vector>

struct gzFile_s;

namespace moe::data {

// Throws DataError("data file '<path>': <what>").
[[noreturn]] void fail_file(const std::string& path, const std::string& what);

class GzFile {
 public:
  explicit GzFile(const std::string& path);
  ~GzFile();
  GzFile(const GzFile&) = delete;
  GzFile& operator=(const GzFile&) = delete;

  // Reads up to `n` bytes into `out` and returns how many it read: fewer only at the end of the
  // data (including a compressed stream that ends early). DataError on corrupt compressed data.
  int64_t read(void* out, int64_t n);
  const std::string& path() const { return path_; }
  bool compressed() const;  // gzip data, not a plain file passed through

 private:
  std::string path_;
  gzFile_s* file_ = nullptr;
};

// The whole (inflated) content of a file, at most `max_bytes` of it: a small .gz file can inflate
// to far more than memory holds, so a longer content fails naming the file and `why` that is the
// most (what its header or its format allows).
std::vector<uint8_t> read_whole_file(const std::string& path, int64_t max_bytes,
                                     const std::string& why);
// Its first `n` bytes (fewer when it is shorter).
std::vector<uint8_t> read_file_start(const std::string& path, int64_t n);

// The directory a data.path names: the path itself, or its parent when it is a file.
// DataError ("<kind> data path '<path>' not found") when it does not exist.
std::string data_directory(const std::string& path, const std::string& kind);

// dir/name, else dir/name.gz; "" when neither is a regular file.
std::string find_data_file(const std::string& dir, const std::string& name);

}  // namespace moe::data
