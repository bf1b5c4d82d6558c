#include "train/stop_signal.h"

#include <csignal>

namespace moe::train {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

void on_stop_signal(int sig) {
  if (g_stop_signal != 0) {  // second request: stop now
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_stop_signal = sig;
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGHUP, &action, nullptr);  // a dropped SSH session: stop with a checkpoint
  std::signal(SIGPIPE, SIG_IGN);
}

int stop_requested() {
  return g_stop_signal;
}

}  // namespace moe::train
