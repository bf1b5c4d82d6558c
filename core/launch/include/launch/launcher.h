#pragma once
// `moe-train launch`: starts this node's ranks of a multi-process run as child processes with
// torchrun's variables, forwards their output and signals, and ends them together when one fails
// (docs/PROTOCOL.md, "moe-train launch"). No Torch: it only starts processes, so its tests run any
// program (the command passes moe-train itself).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace moe::launch {

// An option of the launch makes no sense; what() names the option. moe-train exits with status 2.
struct LaunchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LaunchOptions {
  std::string executable;         // the program every rank runs
  std::vector<std::string> args;  // its arguments, without argv[0]
  int64_t nproc_per_node = 1, nnodes = 1, node_rank = 0;
  std::string master_addr;  // empty: 127.0.0.1, with one node only
  int master_port = 0;      // 0: a free port on master_addr, picked here (one node only)
  // After a failure or a stop: seconds from SIGTERM (or the stop's signal) to SIGKILL.
  double grace_s = 30;
  // After a rank failure: start every rank again (from the run's last checkpoint) up to this
  // many times, as torchrun's --max-restarts.
  int64_t max_restarts = 0;
};

// Throws LaunchError naming the option (--nproc-per-node, --node-rank, ...).
void check_launch_options(const LaunchOptions& options);

// Runs the ranks to their end and returns the launch's exit status: 0 when every rank exits 0;
// with max_restarts, a failure starts them all again (MOE_RESTART=k, the k-th restart) and the
// status is the last attempt's;
// the first failing rank's status (128 + signal when a signal killed it) when one fails while no
// stop was asked for; after SIGINT, SIGTERM or SIGHUP reached the launcher, the status of the
// first rank that did not end as stopped by it, else the first local rank's (128 + the signal).
// Rank 0 writes to the launcher's stdout and stderr; every other rank's output goes to stderr,
// each line prefixed "[rank i] ". Throws LaunchError for bad options, std::system_error when a
// process or pipe cannot be made.
int launch(const LaunchOptions& options);

}  // namespace moe::launch
