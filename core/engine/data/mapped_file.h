#pragma once
// A file mapped read-only into memory (token caches, Megatron .bin / .idx files): pages are read
// on demand and shared between the ranks of one machine.
#include <cstddef>
#include <cstdint>
#include <string>

namespace moe::data {

class MappedFile {
 public:
  // DataError naming the file when it cannot be opened or mapped.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
};

}  // namespace moe::data
