#pragma once
// Watches the started ranks to their end: forwards the launcher's SIGINT, SIGTERM and SIGHUP to
// them once (a second one kills them), tears the launch down when a rank fails, forwards their
// captured output, and reaps every one of them. After a stop or a failure, ranks still running
// when the grace is over are SIGKILLed, whatever they do.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <vector>

#include "launch/launch_output.h"
#include "launch/launch_signals.h"

namespace moe::launch {

struct WatchedRank {
  int64_t rank = 0;  // global
  pid_t pid = -1;
  std::vector<PrefixedOutput> outputs;  // empty when the rank writes to the launcher's own
  bool running = true;
  int status = 0;  // exit status, 128 + signal when a signal killed it
};

class LaunchSupervisor {
 public:
  LaunchSupervisor(std::vector<WatchedRank> ranks, double grace_s);
  // Returns when every rank is reaped; the launch's exit status (launcher.h).
  int run(LaunchSignals& signals);
  // Sends sig to every rank still running (its whole process group).
  void signal_all(int sig);
  // For an error of the launcher itself: SIGKILL to every rank, then reaps them.
  void kill_all_and_wait();
  // After run(): whether a rank failed while no stop was asked for (a restart may follow), and
  // whether a stop was asked for.
  bool failed() const { return failed_.has_value(); }
  bool stopped() const { return stop_signal_ != 0; }

 private:
  void on_signal(int sig);
  void reap();
  void on_failure(size_t index);
  void arm_kill_deadline();
  int poll_timeout_ms() const;
  bool any_running() const;

  std::vector<WatchedRank> ranks_;
  std::chrono::duration<double> grace_;
  std::optional<size_t> failed_;  // index of the first rank that failed
  int stop_signal_ = 0;           // the signal that asked for the stop, 0 when none did
  // During a stop: the first rank that ended otherwise than stopped by it (or 0).
  std::optional<size_t> failed_in_stop_;
  std::optional<std::chrono::steady_clock::time_point> kill_at_;
};

}  // namespace moe::launch
