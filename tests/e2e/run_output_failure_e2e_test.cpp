// A run whose metrics.jsonl or stderr.log cannot take another line (a full file system, the file
// removed) ends "failed" naming the file and the cause, on stdout's run_end and on stderr, with
// exit status 1; its last complete checkpoint stays, and the run resumes from it once there is
// room.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "run_fixtures.h"

namespace moe::test {
namespace {

namespace fs = std::filesystem;

// Waits until `metrics` holds an event of `type` (or 60 s pass).
bool wait_for_event(const std::string& metrics, const std::string& type) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::istringstream in(read_file(metrics));
    for (std::string line; std::getline(in, line);) {
      auto e = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (e.is_object() && e.value("type", "") == type) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// A small tmpfs mounted for the test (needs CAP_SYS_ADMIN); mounted() is false where the machine
// does not allow it.
class SmallFileSystem {
 public:
  explicit SmallFileSystem(const std::string& path) : path_(path) {
    fs::create_directories(path);
    mounted_ = ::mount("tmpfs", path.c_str(), "tmpfs", 0, "size=2m") == 0;
  }
  ~SmallFileSystem() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  // Writes `file` until the file system has no room left.
  void fill(const std::string& file) const {
    std::FILE* f = std::fopen(file.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::setvbuf(f, nullptr, _IONBF, 0);
    const std::string chunk(4096, 'x');
    while (std::fwrite(chunk.data(), 1, chunk.size(), f) == chunk.size()) {
    }
    while (std::fwrite("x", 1, 1, f) == 1) {
    }
    std::fclose(f);
  }

 private:
  std::string path_;
  bool mounted_ = false;
};

nlohmann::json endless_config(int64_t checkpoint_every) {
  nlohmann::json c = tiny_config("helloworld");
  // Long enough to be caught at work; short enough that a run which ignored the failure ends.
  c["train"].update({{"steps", 50000}, {"checkpoint_every", checkpoint_every}});
  return c;
}

// The run failed because of `file` (named with `cause`), on stdout's run_end and on stderr.
void expect_failed_naming(const ProcessResult& r, const std::string& file,
                          const std::string& cause) {
  EXPECT_EQ(r.exit_status, 1) << r.err;
  const auto events = events_of(r.out);
  ASSERT_FALSE(events.empty()) << r.err;
  const auto& end = events.back();
  EXPECT_EQ(end["type"], "run_end");
  EXPECT_EQ(end["status"], "failed");
  const std::string error = end.value("error", "");
  EXPECT_NE(error.find(file), std::string::npos) << error;
  EXPECT_NE(error.find(cause), std::string::npos) << error;
  EXPECT_NE(r.err.find(file + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(cause), std::string::npos) << r.err;
}

// The step of the newest step-<n> checkpoint directory of `run` (-1 when there is none).
int64_t newest_checkpoint(const std::string& run) {
  int64_t newest = -1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(run + "/checkpoints", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("step-", 0) == 0) newest = std::max<int64_t>(newest, std::stoll(name.substr(5)));
  }
  return newest;
}

// The newest checkpoint is `step`, whole (its state names the step; resuming from it is tested
// by the callers), and no temporary directory of a save is left.
void expect_checkpoint(const std::string& run, int64_t step) {
  ASSERT_EQ(newest_checkpoint(run), step);
  const std::string dir = run + "/checkpoints/step-" + std::to_string(step);
  EXPECT_EQ(nlohmann::json::parse(read_file(dir + "/state.json")).at("step"), step);
  for (const char* part : {"/model.safetensors", "/optimizer.safetensors"}) {
    EXPECT_GT(fs::file_size(dir + part), 8u) << part;
  }
  for (const auto& entry : fs::directory_iterator(run + "/checkpoints")) {
    EXPECT_EQ(entry.path().filename().string().rfind(".step-", 0), std::string::npos)
        << entry.path();
  }
}

// Every line of metrics.jsonl is a whole event (a failed write is cut back, never left half).
void expect_whole_lines(const std::string& metrics) {
  std::istringstream in(read_file(metrics));
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded())
        << "line " << lines + 1 << ": " << line;
  }
  EXPECT_GT(lines, 0);
}

TEST(RunOutputFailure, FullFileSystemFailsTheRunAndKeepsTheCheckpoint) {
  TempDir dir;
  SmallFileSystem small(dir.file("small"));
  // Checkpoints far apart: the pause below never catches the run inside a save.
  const std::string config = write_config(dir, "c.json", endless_config(200));
  if (small.mounted()) {
    // A real full disk: the run trains until its first checkpoint, is paused, the file system
    // is filled, and it goes on.
    const std::string run = dir.file("small/run");
    MoeTrainProcess p({"run", "--config", config, "--run-dir", run});
    ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "checkpoint"));
    p.signal(SIGSTOP);
    const int64_t saved = newest_checkpoint(run);
    small.fill(dir.file("small/filler"));
    p.signal(SIGCONT);
    expect_failed_naming(p.wait(), run + "/metrics.jsonl", "No space left on device");
    expect_checkpoint(run, saved);
    expect_whole_lines(run + "/metrics.jsonl");

    fs::remove(dir.file("small/filler"));
    auto resumed = run_moe_train(
        {"run", "--resume", run, "--set", "train.steps=" + std::to_string(saved + 2)});
    EXPECT_EQ(resumed.exit_status, 0) << resumed.err;
    expect_whole_lines(run + "/metrics.jsonl");
    return;
  }
  // No mount allowed here: /dev/full stands in for the full disk (every write: ENOSPC).
  const std::string run = dir.file("run");
  nlohmann::json short_run = endless_config(2);
  short_run["train"]["steps"] = 4;
  ASSERT_EQ(run_moe_train(
                {"run", "--config", write_config(dir, "short.json", short_run), "--run-dir", run})
                .exit_status,
            0);
  fs::rename(run + "/metrics.jsonl", run + "/metrics.saved");
  fs::create_symlink("/dev/full", run + "/metrics.jsonl");
  expect_failed_naming(run_moe_train({"run", "--resume", run, "--set", "train.steps=8"}),
                       run + "/metrics.jsonl", "No space left on device");
  expect_checkpoint(run, 4);
  fs::remove(run + "/metrics.jsonl");
  fs::rename(run + "/metrics.saved", run + "/metrics.jsonl");
  EXPECT_EQ(run_moe_train({"run", "--resume", run, "--set", "train.steps=6"}).exit_status, 0);
}

TEST(RunOutputFailure, StderrLogThatCannotBeWrittenFailsTheRun) {
  TempDir dir;
  const std::string run = dir.file("run");
  nlohmann::json c = endless_config(2);
  c["train"]["steps"] = 4;
  ASSERT_EQ(run_moe_train({"run", "--config", write_config(dir, "c.json", c), "--run-dir", run})
                .exit_status,
            0);
  fs::remove(run + "/stderr.log");
  fs::create_symlink("/dev/full", run + "/stderr.log");
  expect_failed_naming(run_moe_train({"run", "--resume", run, "--set", "train.steps=8"}),
                       run + "/stderr.log", "No space left on device");
  expect_checkpoint(run, 4);
  fs::remove(run + "/stderr.log");
  EXPECT_EQ(run_moe_train({"run", "--resume", run, "--set", "train.steps=6"}).exit_status, 0);
}

TEST(RunOutputFailure, MetricsFileRemovedDuringTheRun) {
  TempDir dir;
  const std::string run = dir.file("run");
  MoeTrainProcess p(
      {"run", "--config", write_config(dir, "c.json", endless_config(200)), "--run-dir", run});
  ASSERT_TRUE(wait_for_event(run + "/metrics.jsonl", "checkpoint"));
  p.signal(SIGSTOP);
  const int64_t saved = newest_checkpoint(run);
  fs::remove(run + "/metrics.jsonl");
  p.signal(SIGCONT);
  expect_failed_naming(p.wait(), run + "/metrics.jsonl", "removed");
  expect_checkpoint(run, saved);
}

}  // namespace
}  // namespace moe::test
