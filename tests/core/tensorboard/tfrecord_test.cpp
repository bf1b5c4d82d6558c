// TFRecord framing: written by TfRecordWriter, read back by the tests' own reader, which checks
// every length and CRC; a changed byte anywhere in a record is caught.
#include "tensorboard/tfrecord_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../engine/train/temp_dir.h"
#include "event_file_reader.h"
#include "tensorboard/crc32c.h"

namespace moe::tensorboard {
namespace {

class TfRecordTest : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return dir_ / name; }

  train::test::TempDir dir_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void flip_byte(const std::string& path, size_t offset) {
  std::string bytes = slurp(path);
  ASSERT_LT(offset, bytes.size());
  bytes[offset] = static_cast<char>(bytes[offset] ^ 0x01);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST_F(TfRecordTest, FrameLayout) {
  const std::string frame = tfrecord_frame("abc");
  ASSERT_EQ(frame.size(), 8u + 4u + 3u + 4u);
  EXPECT_EQ(frame.substr(0, 8), std::string("\x03\0\0\0\0\0\0\0", 8));  // little endian
  const auto u32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<unsigned char>(frame[at + i])) << (8 * i);
    return v;
  };
  EXPECT_EQ(u32(8), mask_crc32c(crc32c(frame.data(), 8)));
  EXPECT_EQ(frame.substr(12, 3), "abc");
  EXPECT_EQ(u32(15), mask_crc32c(crc32c("abc")));
}

TEST_F(TfRecordTest, RecordsReadBackInOrder) {
  const std::string path = file("records");
  const std::vector<std::string> written{"first", std::string(1000, 'x'), "", "last"};
  {
    TfRecordWriter w(path);
    for (const auto& r : written) w.append(r);
    w.flush();
  }
  EXPECT_EQ(test::read_tfrecords(path), written);
}

TEST_F(TfRecordTest, ExistingFileIsNeverOverwritten) {
  const std::string path = file("taken");
  std::ofstream(path) << "someone's data";
  EXPECT_THROW(TfRecordWriter w(path), std::runtime_error);
  EXPECT_EQ(slurp(path), "someone's data");
  try {
    TfRecordWriter w(file("missing-dir/records"));
    FAIL() << "no error for a missing directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing-dir/records: cannot create"), std::string::npos)
        << e.what();
  }
}

TEST_F(TfRecordTest, CorruptedByteIsDetected) {
  const std::string path = file("records");
  {
    TfRecordWriter w(path);
    w.append("first record");
    w.append("second record");
  }
  const size_t second = tfrecord_frame("first record").size();
  // A byte of the second record's data, of its length, of each CRC.
  const std::vector<std::pair<size_t, std::string>> cases{
      {second + 12 + 3, "data CRC does not match"},
      {second + 1, "length CRC does not match"},
      {second + 9, "length CRC does not match"},
      {second + 12 + 13 + 2, "data CRC does not match"},
  };
  const std::string good = slurp(path);
  for (const auto& [offset, message] : cases) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << good;
    flip_byte(path, offset);
    try {
      test::read_tfrecords(path);
      ADD_FAILURE() << "byte " << offset << " changed, not detected";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(message), std::string::npos) << "byte " << offset << ": " << what;
      EXPECT_NE(what.find("record at byte " + std::to_string(second)), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace moe::tensorboard
