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

 private:
  std::string path_;
  gzFile_s* file_ = nullptr;
};

// The whole (inflated) content of a file.
std::vector<uint8_t> read_whole_file(const std::string& path);

// The directory a data.path names: the path itself, or its parent when it is a file.
// DataError ("<kind> data path '<path>' not found") when it does not exist.
std::string data_directory(const std::string& path, const std::string& kind);

// dir/name, else dir/name.gz; "" when neither is a regular file.
std::string find_data_file(const std::string& dir, const std::string& name);

}  // namespace moe::data
