// moe-train launch [options] -- <command>: starts this node's ranks of a multi-process run, each
// running moe-train <command> with torchrun's variables (core/launch/include/launch/launcher.h).
#include <filesystem>

#include "commands.h"
#include "launch/launcher.h"

namespace moe::train {
namespace {

// This very program, by its path when it has one (ps and error messages then name it).
std::string this_program() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || !std::filesystem::exists(path, ec)) return "/proc/self/exe";  // replaced or deleted
  return path.string();
}

}  // namespace

Command add_launch_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "launch",
      "Start this node's ranks of a multi-process run: launch --nproc-per-node N -- run ...");
  auto options = std::make_shared<launch::LaunchOptions>();
  auto port = std::make_shared<int64_t>(0);
  cmd->add_option("--nproc-per-node", options->nproc_per_node, "Ranks on this node")->required();
  cmd->add_option("--nnodes", options->nnodes, "Nodes in the run (default 1)");
  cmd->add_option("--node-rank", options->node_rank, "This node's index, 0 to nnodes - 1");
  cmd->add_option("--master-addr", options->master_addr,
                  "Host of rank 0's rendezvous (default 127.0.0.1; required with --nnodes > 1)");
  cmd->add_option("--master-port", *port,
                  "Its port (default: a free one; required with --nnodes > 1)");
  cmd->add_option("--grace-s", options->grace_s,
                  "After a rank fails or a stop: seconds from SIGTERM to SIGKILL (default 30)");
  cmd->add_option("--max-restarts", options->max_restarts,
                  "After a rank fails: start every rank again from the last checkpoint, up to N "
                  "times (default 0)");
  cmd->add_option("command", options->args, "Each rank's moe-train command, after --");
  return [=]() {
    if (cmd->count("--master-port") && (*port < 1 || *port > 65535))
      throw launch::LaunchError("--master-port " + std::to_string(*port) +
                                ": must be a port from 1 to 65535");
    launch::LaunchOptions o = *options;
    o.master_port = static_cast<int>(*port);
    o.executable = this_program();
    return launch::launch(o);
  };
}

}  // namespace moe::train
