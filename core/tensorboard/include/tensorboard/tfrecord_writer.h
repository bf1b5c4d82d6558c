#pragma once
// TFRecord files, the container of TensorBoard's event files: a sequence of records, each
//   uint64 length (little endian), uint32 masked CRC-32C of those 8 bytes,
//   the data, uint32 masked CRC-32C of the data.
#include <cstdio>
#include <string>
#include <string_view>

namespace moe::tensorboard {

// One record's bytes as they go to the file.
std::string tfrecord_frame(std::string_view data);

class TfRecordWriter {
 public:
  // Creates `path`, which must not exist yet (an events file is never appended to: a resumed run
  // starts a new one). std::runtime_error naming the path when it cannot.
  explicit TfRecordWriter(const std::string& path);
  ~TfRecordWriter();
  TfRecordWriter(const TfRecordWriter&) = delete;
  TfRecordWriter& operator=(const TfRecordWriter&) = delete;

  // Buffered; std::runtime_error naming the file when the write fails (disk full...).
  void append(std::string_view data);
  // Hands what was appended to the OS, so that a reader of the file (a live TensorBoard) sees it.
  void flush();

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what) const;
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace moe::tensorboard
