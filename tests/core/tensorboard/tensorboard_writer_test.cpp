// Event files as TensorBoard reads them: the name it globs, "brain.Event:2" first, then one Event
// per write with its step, wall time and tags, each on disk after flush().
#include "tensorboard/tensorboard_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "../engine/train/temp_dir.h"
#include "event_file_reader.h"

namespace moe::tensorboard {
namespace {

class TensorBoardWriterTest : public ::testing::Test {
 protected:
  std::string tb_dir() const { return (dir_.path() / "run" / "tensorboard").string(); }

  train::test::TempDir dir_;
};

TEST_F(TensorBoardWriterTest, FileNameIsTheOneTensorBoardGlobs) {
  EXPECT_EQ(tensorboard_file_name(1700000000, "node-a"), "events.out.tfevents.1700000000.node-a");
  EXPECT_EQ(tensorboard_file_name(5, "a/b"), "events.out.tfevents.5.a_b");
}

TEST_F(TensorBoardWriterTest, VersionRecordThenScalars) {
  const double before = unix_seconds_now();
  TensorBoardWriter w(tb_dir(), "host-1");
  EXPECT_TRUE(std::regex_match(std::filesystem::path(w.path()).filename().string(),
                               std::regex(R"(events\.out\.tfevents\.\d+\.host-1)")))
      << w.path();
  w.write({3, {{"train/loss", 2.5f}, {"phases/a2a_ms", 0.0f}}}, 1700000000.25);
  w.write({4, {{"train/loss", std::nanf("")}}}, 1700000001.5);
  w.flush();

  const auto events = test::read_events(w.path());  // before the writer closes: flush() suffices
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].file_version(), "brain.Event:2");
  EXPECT_FALSE(events[0].has_summary());
  EXPECT_GE(events[0].wall_time(), std::floor(before));
  EXPECT_LE(events[0].wall_time(), unix_seconds_now());

  EXPECT_EQ(events[1].step(), 3);
  EXPECT_DOUBLE_EQ(events[1].wall_time(), 1700000000.25);
  ASSERT_EQ(events[1].summary().value_size(), 2);
  EXPECT_EQ(events[1].summary().value(0).tag(), "train/loss");
  EXPECT_EQ(events[1].summary().value(0).simple_value(), 2.5f);
  // A zero is written too (a oneof member is present even when 0).
  EXPECT_EQ(events[1].summary().value(1).tag(), "phases/a2a_ms");
  EXPECT_TRUE(events[1].summary().value(1).has_simple_value());
  EXPECT_EQ(events[1].summary().value(1).simple_value(), 0.0f);

  EXPECT_EQ(events[2].step(), 4);
  EXPECT_TRUE(std::isnan(events[2].summary().value(0).simple_value()));
}

TEST_F(TensorBoardWriterTest, SecondWriterStartsAnotherFile) {
  TensorBoardWriter first(tb_dir(), "h");
  TensorBoardWriter second(tb_dir(), "h");  // e.g. a resume within the same second
  EXPECT_NE(first.path(), second.path());
  EXPECT_EQ(test::event_files(tb_dir()).size(), 2u);
  EXPECT_EQ(test::read_events(second.path()).at(0).file_version(), "brain.Event:2");
}

TEST_F(TensorBoardWriterTest, UnwritableDirectoryIsNamed) {
  std::filesystem::create_directories(dir_.path() / "run");
  std::ofstream((dir_.path() / "run" / "tensorboard").string()) << "a file, not a directory";
  try {
    TensorBoardWriter w(tb_dir(), "h");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(tb_dir()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace moe::tensorboard
