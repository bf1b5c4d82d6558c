#include "launch/launch_supervisor.h"

#include <poll.h>
#include <sys/wait.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <sstream>
#include <system_error>

namespace moe::launch {
namespace {

using Clock = std::chrono::steady_clock;

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? "SIG" + std::string(abbrev) : "an unknown signal";
}

std::string seconds(double s) {
  std::ostringstream text;
  text << s;
  return text.str();
}

int exit_status(int wait_status) {
  return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : WEXITSTATUS(wait_status);
}

std::string how_it_ended(const WatchedRank& r, int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    return "was killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
  }
  return "exited with status " + std::to_string(r.status);
}

}  // namespace

LaunchSupervisor::LaunchSupervisor(std::vector<WatchedRank> ranks, double grace_s)
    : ranks_(std::move(ranks)), grace_(grace_s) {}

bool LaunchSupervisor::any_running() const {
  for (const auto& r : ranks_)
    if (r.running) return true;
  return false;
}

void LaunchSupervisor::signal_all(int sig) {
  for (const auto& r : ranks_)
    if (r.running && kill(-r.pid, sig) != 0) kill(r.pid, sig);
}

void LaunchSupervisor::kill_all_and_wait() {
  signal_all(SIGKILL);
  for (auto& r : ranks_)
    if (r.running) waitpid(r.pid, nullptr, 0);
  for (auto& r : ranks_) r.running = false;
}

void LaunchSupervisor::on_signal(int sig) {
  if (stop_signal_ || failed_) {  // the second signal, or one during a teardown: no waiting
    write_all(STDERR_FILENO,
              "moe-train launch: " + signal_name(sig) + " again: killing every rank\n");
    signal_all(SIGKILL);
    kill_at_.reset();
    return;
  }
  stop_signal_ = sig;
  write_all(STDERR_FILENO, "moe-train launch: " + signal_name(sig) +
                               ": passed on to every rank (a second one kills them)\n");
  signal_all(sig);
  arm_kill_deadline();
}

void LaunchSupervisor::arm_kill_deadline() {
  kill_at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(grace_);
}

void LaunchSupervisor::on_failure(size_t index) {
  failed_ = index;
  signal_all(SIGTERM);
  arm_kill_deadline();
}

void LaunchSupervisor::reap() {
  for (size_t i = 0; i < ranks_.size(); ++i) {
    WatchedRank& r = ranks_[i];
    int wait_status = 0;
    if (!r.running || waitpid(r.pid, &wait_status, WNOHANG) != r.pid) continue;
    r.running = false;
    r.status = exit_status(wait_status);
    if (failed_ || r.status == 0) continue;
    if (stop_signal_) {
      // A rank that ended otherwise than by the stop (an error, the grace's SIGKILL) is named.
      if (r.status == 128 + stop_signal_ || failed_in_stop_) continue;
      failed_in_stop_ = i;
      write_all(STDERR_FILENO, "moe-train launch: rank " + std::to_string(r.rank) + " " +
                                   how_it_ended(r, wait_status) + " during the stop\n");
      continue;
    }
    write_all(STDERR_FILENO, "moe-train launch: rank " + std::to_string(r.rank) + " " +
                                 how_it_ended(r, wait_status) + "; stopping the other ranks\n");
    on_failure(i);
  }
}

int LaunchSupervisor::poll_timeout_ms() const {
  if (!kill_at_) return -1;
  const auto left = std::chrono::duration<double, std::milli>(*kill_at_ - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::ceil(left));
}

int LaunchSupervisor::run(LaunchSignals& signals) {
  while (any_running()) {
    std::vector<pollfd> fds{{signals.fd(), POLLIN, 0}};
    std::vector<PrefixedOutput*> sources{nullptr};
    for (auto& r : ranks_)
      for (auto& out : r.outputs)
        if (out.fd() >= 0) {
          fds.push_back({out.fd(), POLLIN, 0});
          sources.push_back(&out);
        }
    if (poll(fds.data(), fds.size(), poll_timeout_ms()) < 0 && errno != EINTR)
      throw std::system_error(errno, std::generic_category(), "poll");
    for (int sig : signals.take())
      if (sig != SIGCHLD) on_signal(sig);
    for (size_t i = 1; i < fds.size(); ++i)
      if (fds[i].revents) sources[i]->pump();
    reap();
    if (kill_at_ && Clock::now() >= *kill_at_) {
      if (any_running())
        write_all(STDERR_FILENO, "moe-train launch: the grace of " + seconds(grace_.count()) +
                                     " s is over: killing the ranks still running\n");
      signal_all(SIGKILL);
      kill_at_.reset();
    }
  }
  for (auto& r : ranks_)
    for (auto& out : r.outputs) out.finish();
  if (failed_) return ranks_[*failed_].status;
  if (failed_in_stop_) return ranks_[*failed_in_stop_].status;
  return stop_signal_ ? ranks_.front().status : 0;
}

}  // namespace moe::launch
