#pragma once
// The launcher run as a real process for the tests: forked from the test, its stdout and stderr
// in files, so the tests can signal it, kill it and read what it wrote.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

#include "../../e2e/process.h"
#include "launch/launcher.h"

namespace moe::launch::test {

// A fresh temporary directory and whole-file reads: the end-to-end tests' own.
using moe::test::read_file;
using moe::test::TempDir;

// Calls done() until it holds or `limit` passes; returns whether it held. For waiting on what
// another process does, with a limit far above what it needs.
bool wait_for(const std::function<bool()>& done,
              std::chrono::seconds limit = std::chrono::seconds(60));

// Whether pid names a process that still runs (a zombie does not).
bool process_running(pid_t pid);

// The pid a rank wrote to `path` (its shell's $$), -1 when the file is not complete yet.
pid_t pid_in(const std::string& path);

// Options for `ranks` ranks that each run `/bin/sh -c script`.
LaunchOptions shell_ranks(int64_t ranks, const std::string& script);

struct LaunchResult {
  int exit_status = -1;  // -1: it did not end in time (then it was killed)
  std::string out, err;
};

class LauncherProcess {
 public:
  LauncherProcess(const LaunchOptions& options, const TempDir& dir);
  ~LauncherProcess();  // kills the launcher if it still runs
  pid_t pid() const { return pid_; }
  void signal(int sig) const;
  LaunchResult wait(std::chrono::seconds limit = std::chrono::seconds(120));

 private:
  pid_t pid_ = -1;
  std::string out_path_, err_path_;
};

}  // namespace moe::launch::test
