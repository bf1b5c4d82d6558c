// Run directories: run ids, fresh directories, refusing to overwrite a run, finding one to resume.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <regex>

#include "temp_dir.h"
#include "train/input_error.h"
#include "train/run_directory.h"

namespace moe::train {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::write_text;

TEST(RunDirectory, RunIdIsLocalDateTimeAndName) {
  std::tm local{};
  local.tm_year = 2024 - 1900;
  local.tm_mon = 2;  // March
  local.tm_mday = 5;
  local.tm_hour = 7;
  local.tm_min = 8;
  local.tm_sec = 9;
  local.tm_isdst = -1;
  const auto when = std::chrono::system_clock::from_time_t(std::mktime(&local));
  EXPECT_EQ(make_run_id("demo", when), "20240305-070809-demo");
  EXPECT_EQ(make_run_id("x", when + std::chrono::hours(24 * 30)).substr(0, 9), "20240404-");
}

TEST(RunDirectory, CreateMakesADirectoryNamedByTheRunId) {
  TempDir root;
  const RunDirectory dir = create_run_directory(root / "runs", "demo");
  EXPECT_TRUE(std::regex_match(dir.run_id, std::regex(R"(\d{8}-\d{6}-demo)"))) << dir.run_id;
  EXPECT_EQ(dir.path, (root.path() / "runs" / dir.run_id).string());
  EXPECT_TRUE(fs::is_directory(dir.path));
  EXPECT_EQ(dir.config(), dir.path + "/config.json");
  EXPECT_EQ(dir.metrics(), dir.path + "/metrics.jsonl");
  EXPECT_EQ(dir.checkpoints(), dir.path + "/checkpoints");
}

TEST(RunDirectory, TwoRunsInOneSecondGetDistinctDirectories) {
  TempDir root;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const RunDirectory a = create_run_directory(root / "runs", "same");
    const RunDirectory b = create_run_directory(root / "runs", "same");
    const RunDirectory c = create_run_directory(root / "runs", "same");
    if (c.run_id.rfind(a.run_id, 0) != 0) continue;  // the clock ticked in between: try again
    EXPECT_EQ(b.run_id, a.run_id + "-2");
    EXPECT_EQ(c.run_id, a.run_id + "-3");
    EXPECT_TRUE(fs::is_directory(b.path));
    EXPECT_TRUE(fs::is_directory(c.path));
    return;
  }
  FAIL() << "never created three directories within one second";
}

TEST(RunDirectory, UseCreatesAMissingDirectory) {
  TempDir root;
  const RunDirectory dir = use_run_directory(root / "a/b/run1");
  EXPECT_TRUE(fs::is_directory(root / "a/b/run1"));
  EXPECT_EQ(dir.run_id, "run1");
  EXPECT_EQ(dir.path, root / "a/b/run1");
}

TEST(RunDirectory, UseAcceptsAnEmptyDirectoryWithATrailingSlash) {
  TempDir root;
  fs::create_directories(root / "run2");
  const RunDirectory dir = use_run_directory(root / "run2/");
  EXPECT_EQ(dir.run_id, "run2");
  EXPECT_EQ(dir.path, root / "run2");
}

TEST(RunDirectory, UseRefusesADirectoryHoldingARun) {
  TempDir root;
  for (const char* file : {"config.json", "metrics.jsonl"}) {
    const fs::path dir = root.path() / (std::string("run-") + file);
    fs::create_directories(dir);
    write_text(dir / file, "{}");
    EXPECT_THROW(use_run_directory(dir.string()), InputError) << file;
  }
}

TEST(RunDirectory, ExistingNeedsConfigJson) {
  TempDir root;
  EXPECT_THROW(existing_run_directory(root / "missing"), InputError);
  fs::create_directories(root / "run");
  EXPECT_THROW(existing_run_directory(root / "run"), InputError);
  write_text(root.path() / "run" / "config.json", "{}");
  const RunDirectory dir = existing_run_directory(root / "run");
  EXPECT_EQ(dir.run_id, "run");
  EXPECT_EQ(dir.config(), root / "run/config.json");
}

}  // namespace
}  // namespace moe::train
