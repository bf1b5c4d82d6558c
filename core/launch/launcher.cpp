#include "launch/launcher.h"

#include <sys/wait.h>

#include <cmath>
#include <csignal>

#include "launch/launch_note.h"
#include "launch/launch_port.h"
#include "launch/launch_rank.h"
#include "launch/launch_supervisor.h"

namespace moe::launch {
namespace {

constexpr int64_t kMaxRanks = 2147483647;  // c10d counts ranks in an int

[[noreturn]] void bad(const std::string& option, const std::string& value, const std::string& why) {
  throw LaunchError(option + " " + value + ": " + why);
}

std::string master_address(const LaunchOptions& o) {
  return o.master_addr.empty() ? "127.0.0.1" : o.master_addr;
}

// torchrun's variables for one rank, and MOE_LAUNCHED to say who set them.
// MOE_RESTART (and torchrun's TORCHELASTIC_RESTART_COUNT): how many times the ranks were started
// again; MOE_LAUNCH_NOTE: a file of this launch where rank 0 notes its run directory, so that a
// restarted `run --config` continues that run instead of starting another.
struct Attempt {
  int64_t restart = 0;
  std::string note;  // empty without --max-restarts
};

std::vector<std::string> rank_variables(const LaunchOptions& o, int port, int64_t local_rank,
                                        const Attempt& attempt) {
  const auto str = [](int64_t v) { return std::to_string(v); };
  std::vector<std::string> vars{"RANK=" + str(o.node_rank * o.nproc_per_node + local_rank),
                                "WORLD_SIZE=" + str(o.nnodes * o.nproc_per_node),
                                "LOCAL_RANK=" + str(local_rank),
                                "LOCAL_WORLD_SIZE=" + str(o.nproc_per_node),
                                "MASTER_ADDR=" + master_address(o),
                                "MASTER_PORT=" + str(port),
                                "MOE_LAUNCHED=1",
                                "MOE_RESTART=" + str(attempt.restart),
                                "TORCHELASTIC_RESTART_COUNT=" + str(attempt.restart)};
  if (!attempt.note.empty()) vars.push_back("MOE_LAUNCH_NOTE=" + attempt.note);
  return vars;
}

// Starts every rank of this node; if one cannot be started, kills and reaps those that were.
std::vector<WatchedRank> start_ranks(const LaunchOptions& o, int port, const Attempt& attempt) {
  std::vector<WatchedRank> ranks;
  try {
    for (int64_t local = 0; local < o.nproc_per_node; ++local) {
      WatchedRank r;
      r.rank = o.node_rank * o.nproc_per_node + local;
      const bool own_output = r.rank != 0;
      StartedRank started =
          start_rank({o.executable, o.args,
                      environment_with(rank_variables(o, port, local, attempt)), own_output});
      r.pid = started.pid;
      const std::string prefix = "[rank " + std::to_string(r.rank) + "] ";
      for (int fd : {started.out_fd, started.err_fd})
        if (fd >= 0) r.outputs.emplace_back(fd, prefix);
      ranks.push_back(std::move(r));
    }
  } catch (...) {
    for (auto& r : ranks) {
      kill(-r.pid, SIGKILL);
      waitpid(r.pid, nullptr, 0);
    }
    throw;
  }
  return ranks;
}

}  // namespace

void check_launch_options(const LaunchOptions& o) {
  const auto str = [](int64_t v) { return std::to_string(v); };
  if (o.nproc_per_node < 1) bad("--nproc-per-node", str(o.nproc_per_node), "must be at least 1");
  if (o.nnodes < 1) bad("--nnodes", str(o.nnodes), "must be at least 1");
  if (o.nproc_per_node > kMaxRanks / o.nnodes)
    bad("--nproc-per-node", str(o.nproc_per_node),
        "times --nnodes " + str(o.nnodes) + " is more than " + str(kMaxRanks) + " ranks");
  if (o.node_rank < 0 || o.node_rank >= o.nnodes)
    bad("--node-rank", str(o.node_rank), "must be from 0 to --nnodes - 1 = " + str(o.nnodes - 1));
  if (o.master_port < 0 || o.master_port > 65535)
    bad("--master-port", str(o.master_port), "must be a port from 1 to 65535");
  if (o.nnodes > 1 && o.master_port == 0)
    throw LaunchError("--master-port is required with --nnodes " + str(o.nnodes) +
                      ": every node must give its ranks the same rendezvous port");
  if (o.nnodes > 1 && o.master_addr.empty())
    throw LaunchError("--master-addr is required with --nnodes " + str(o.nnodes) +
                      ": the host of node 0, which every node's ranks can reach");
  if (!std::isfinite(o.grace_s) || o.grace_s < 0 || o.grace_s > 86400)
    bad("--grace-s", std::to_string(o.grace_s), "must be from 0 to 86400 seconds");
  if (o.max_restarts < 0 || o.max_restarts > 1000)
    bad("--max-restarts", str(o.max_restarts), "must be from 0 to 1000");
  if (o.executable.empty()) throw LaunchError("no program for the ranks to run");
  if (o.args.empty())
    throw LaunchError(
        "nothing to run: give each rank's command after --, as in "
        "moe-train launch --nproc-per-node 2 -- run --config c.json");
}

int launch(const LaunchOptions& options) {
  check_launch_options(options);
  const int port =
      options.master_port ? options.master_port : free_port_on(master_address(options));
  LaunchSignals signals;  // before the first fork, so no rank's end goes unnoticed
  LaunchNote note(options.max_restarts > 0);
  for (Attempt attempt{0, note.path()};; ++attempt.restart) {
    LaunchSupervisor supervisor(start_ranks(options, port, attempt), options.grace_s);
    int status = 0;
    try {
      status = supervisor.run(signals);
    } catch (...) {
      supervisor.kill_all_and_wait();
      throw;
    }
    if (!supervisor.failed() || supervisor.stopped() || attempt.restart >= options.max_restarts)
      return status;
    write_all(STDERR_FILENO,
              "moe-train launch: restarting every rank from the last checkpoint "
              "(restart " +
                  std::to_string(attempt.restart + 1) + " of " +
                  std::to_string(options.max_restarts) + ")\n");
  }
}

}  // namespace moe::launch
