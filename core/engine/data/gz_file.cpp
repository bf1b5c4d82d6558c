#include "data/gz_file.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "data/batch_source.h"

namespace moe::data {
namespace fs = std::filesystem;

void fail_file(const std::string& path, const std::string& what) {
  throw DataError("data file '" + path + "': " + what);
}

GzFile::GzFile(const std::string& path) : path_(path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) fail_file(path, "not found (or not a regular file)");
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) fail_file(path, std::string("cannot open: ") + std::strerror(errno));
  gzbuffer(file_, 1 << 20);  // fewer, larger reads of the compressed file
}

GzFile::~GzFile() {
  if (file_ != nullptr) gzclose(file_);
}

bool GzFile::compressed() const {
  return gzdirect(file_) == 0;
}

int64_t GzFile::read(void* out, int64_t n) {
  // gzread takes an unsigned count, and on a stream that ends early returns 0 for the whole call:
  // reading in chunks and measuring progress with gztell keeps the count of bytes read exact.
  constexpr int64_t kChunk = 1 << 24;
  auto* dst = static_cast<char*>(out);
  int64_t total = 0;
  while (total < n) {
    const int64_t want = std::min(kChunk, n - total);
    const z_off_t before = gztell(file_);
    const int got = gzread(file_, dst + total, static_cast<unsigned>(want));
    int errnum = Z_OK;
    const char* message = gzerror(file_, &errnum);
    if (got < 0 || (errnum != Z_OK && errnum != Z_BUF_ERROR)) {
      fail_file(path_, "corrupt compressed data after " + std::to_string(total) +
                           " bytes (zlib: " + message + ")");
    }
    const int64_t progressed = std::max<int64_t>(got, gztell(file_) - before);
    total += progressed;
    if (progressed < want) break;  // end of the data (Z_BUF_ERROR: the stream ended early)
  }
  return total;
}

std::vector<uint8_t> read_whole_file(const std::string& path, int64_t max_bytes,
                                     const std::string& why_most) {
  GzFile file(path);
  std::string why = why_most;
  if (file.compressed()) {
    // Deflate inflates 1032:1 at most: a longer content is no gzip file zlib or gzip wrote.
    std::error_code ec;
    const auto packed = static_cast<int64_t>(fs::file_size(path, ec));
    const int64_t deflate_most = packed * 1032 + (int64_t{1} << 20);
    if (!ec && deflate_most < max_bytes) {
      max_bytes = deflate_most;
      why = "deflate can make of its " + std::to_string(packed) + " compressed bytes";
    }
  }
  std::vector<uint8_t> bytes;
  constexpr int64_t kStep = 1 << 24;
  int64_t size = 0;
  for (;;) {
    // One byte past the bound tells a content that is too long.
    const int64_t step = std::min(kStep, max_bytes + 1 - size);
    bytes.resize(static_cast<size_t>(size + step));
    const int64_t got = file.read(bytes.data() + size, step);
    size += got;
    if (size > max_bytes) {
      fail_file(path, "holds more than " + std::to_string(max_bytes) + " bytes" +
                          (file.compressed() ? " once inflated" : "") + ", the most " + why);
    }
    if (got < step) break;
  }
  bytes.resize(static_cast<size_t>(size));
  return bytes;
}

std::vector<uint8_t> read_file_start(const std::string& path, int64_t n) {
  GzFile file(path);
  std::vector<uint8_t> bytes(static_cast<size_t>(n));
  bytes.resize(static_cast<size_t>(file.read(bytes.data(), n)));
  return bytes;
}

std::string data_directory(const std::string& path, const std::string& kind) {
  std::error_code ec;
  if (path.empty()) throw DataError(kind + " data: data.path is empty");
  if (fs::is_directory(path, ec)) return path;
  if (fs::exists(path, ec)) {
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
  }
  throw DataError(kind + " data path '" + path + "' not found");
}

std::string find_data_file(const std::string& dir, const std::string& name) {
  std::error_code ec;
  for (const std::string& candidate : {name, name + ".gz"}) {
    const fs::path p = fs::path(dir) / candidate;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

}  // namespace moe::data
