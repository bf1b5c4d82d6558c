#include "data/text_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "data/gz_file.h"
#include "data/window_source.h"

namespace moe::data {
namespace {

// Bytes held in memory, one token each.
class ByteStream : public TokenStream {
 public:
  explicit ByteStream(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  int64_t size() const override { return static_cast<int64_t>(bytes_.size()); }
  void copy(int64_t offset, int64_t n, int64_t* out) const override {
    std::copy_n(bytes_.begin() + offset, n, out);
  }

 private:
  const std::vector<uint8_t> bytes_;
};

// The file's bytes as they are (no gzip inflation: any file is text here).
std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail_file(path, "cannot open");
  std::vector<uint8_t> bytes(static_cast<size_t>(in.tellg()));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
    fail_file(path, "read error");
  }
  return bytes;
}

}  // namespace

std::vector<std::string> data_files(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {path};
  if (!fs::is_directory(path, ec)) fail_file(path, "not found (or not a file or directory)");
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(path, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    // Token caches are not data, wherever data.cache_dir puts them.
    if (it->is_directory(ec) && it->path().extension() == ".moe-tokens") {
      it.disable_recursion_pending();
    } else if (it->is_regular_file(ec)) {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::unique_ptr<BatchSource> make_text_source(const std::string& path, int64_t seq_len,
                                              double val_fraction, uint64_t seed) {
  // A folder of documents is one corpus.
  std::vector<uint8_t> all;
  for (const auto& file : data_files(path)) {
    std::vector<uint8_t> bytes = read_bytes(file);
    all.insert(all.end(), bytes.begin(), bytes.end());
  }
  return make_window_source(std::make_shared<ByteStream>(std::move(all)),
                            {path, "text '" + path + "'", "bytes", seq_len, val_fraction, seed});
}

}  // namespace moe::data
