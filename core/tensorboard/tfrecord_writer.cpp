#include "tensorboard/tfrecord_writer.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "tensorboard/crc32c.h"

namespace moe::tensorboard {

namespace {

template <class Int>
void put_little_endian(std::string& out, Int value) {
  for (size_t i = 0; i < sizeof(Int); ++i) {
    out.push_back(static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xFFu));
  }
}

}  // namespace

std::string tfrecord_frame(std::string_view data) {
  std::string frame;
  frame.reserve(data.size() + 16);
  put_little_endian(frame, static_cast<uint64_t>(data.size()));
  put_little_endian(frame, mask_crc32c(crc32c(frame.data(), 8)));
  frame.append(data);
  put_little_endian(frame, mask_crc32c(crc32c(data)));
  return frame;
}

TfRecordWriter::TfRecordWriter(const std::string& path) : path_(path) {
  // "x": fail instead of truncating a file that exists (C11, glibc).
  file_ = std::fopen(path.c_str(), "wbx");
  if (!file_) fail("cannot create");
}

TfRecordWriter::~TfRecordWriter() {
  if (file_) std::fclose(file_);
}

void TfRecordWriter::append(std::string_view data) {
  const std::string frame = tfrecord_frame(data);
  if (std::fwrite(frame.data(), 1, frame.size(), file_) != frame.size()) fail("cannot write");
}

void TfRecordWriter::flush() {
  if (std::fflush(file_) != 0) fail("cannot write");
}

void TfRecordWriter::fail(const char* what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
}

}  // namespace moe::tensorboard
