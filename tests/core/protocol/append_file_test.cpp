// AppendFile: every failure is reported with the file and its cause (a full device, the file
// removed or replaced, a close), a failed write never leaves half a line, and nothing is written
// after a failure.
#include "protocol/append_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/telemetry_writer.h"
#include "test_util.h"

namespace moe::protocol {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;
namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(AppendFile, AppendsToWhatIsThere) {
  TempDir dir;
  const std::string path = dir.write("log", "old\n");
  AppendFile file(path);
  EXPECT_TRUE(file.append("new\n"));
  EXPECT_TRUE(file.check_in_place());
  EXPECT_TRUE(file.sync());
  EXPECT_TRUE(file.close());
  EXPECT_EQ(file.error(), "");
  EXPECT_EQ(read_all(path), "old\nnew\n");
}

TEST(AppendFile, CannotOpenNamesThePathAndTheCause) {
  TempDir dir;
  const std::string path = dir.file("missing/log");
  try {
    AppendFile file(path);
    FAIL() << "opened";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": cannot open for appending: No such file or directory");
  }
}

TEST(AppendFile, FullDeviceIsAnErrorAndStopsWriting) {
  AppendFile full("/dev/full");  // every write fails with ENOSPC
  EXPECT_FALSE(full.append("a line\n"));
  EXPECT_EQ(full.error(), "/dev/full: write failed: No space left on device");
  EXPECT_FALSE(full.append("another\n"));
  EXPECT_EQ(full.error(), "/dev/full: write failed: No space left on device");  // the first one
  EXPECT_FALSE(full.close());
}

TEST(AppendFile, RemovedOrReplacedFileIsNoticed) {
  TempDir dir;
  const std::string path = dir.file("metrics.jsonl");
  AppendFile removed(path);
  fs::remove(path);
  EXPECT_FALSE(removed.check_in_place());
  EXPECT_THAT(removed.error(), HasSubstr(path + ": removed while the run was writing it"));

  AppendFile replaced(dir.file("b"));
  fs::rename(dir.file("b"), dir.file("b.old"));
  dir.write("b", "someone else's file\n");
  EXPECT_FALSE(replaced.check_in_place());
  EXPECT_THAT(replaced.error(), HasSubstr(": replaced while the run was writing it"));
}

TEST(AppendFile, MovesKeepOneOwner) {
  TempDir dir;
  AppendFile a(dir.file("x"));
  AppendFile b = std::move(a);
  EXPECT_FALSE(a.is_open());
  EXPECT_TRUE(b.append("moved\n"));
  b = AppendFile(dir.file("y"));
  EXPECT_TRUE(b.append("y\n"));
  EXPECT_EQ(read_all(dir.file("x")), "moved\n");
  EXPECT_EQ(read_all(dir.file("y")), "y\n");
}

TEST(TelemetryWriterFile, LostLineIsReportedAndStdoutKeepsEverything) {
  std::ostringstream out;
  TelemetryWriter writer(&out, "/dev/full");
  EXPECT_EQ(writer.file_error(), "");
  writer.write({{"type", "log"}, {"msg", "one"}});
  EXPECT_FALSE(writer.file_ok());
  EXPECT_EQ(writer.file_error(), "/dev/full: write failed: No space left on device");
  writer.write({{"type", "log"}, {"msg", "two"}});
  EXPECT_THAT(out.str(), HasSubstr("\"one\""));
  EXPECT_THAT(out.str(), HasSubstr("\"two\""));
}

}  // namespace
}  // namespace moe::protocol
