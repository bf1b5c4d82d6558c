#pragma once
// Starts one rank: a child process in its own process group (a terminal's Ctrl-C reaches only the
// launcher, which forwards it), killed by the kernel if the launcher dies first, stdin from
// /dev/null, and its stdout and stderr either inherited or on pipes.
#include <sys/types.h>

#include <string>
#include <vector>

namespace moe::launch {

struct RankCommand {
  std::string executable;
  std::vector<std::string> args;         // without argv[0]
  std::vector<std::string> environment;  // "NAME=value", the whole environment
  bool capture_output = false;           // stdout and stderr on pipes instead of inherited
};

struct StartedRank {
  pid_t pid = -1;
  int out_fd = -1, err_fd = -1;  // non-blocking read ends when captured, else -1
};

// Throws std::system_error when no process or pipe can be made. A program that cannot be
// executed shows as a rank that says so on its stderr and exits with status 127.
StartedRank start_rank(const RankCommand& command);

// The launcher's environment with each of `overrides` ("NAME=value") replacing its name.
std::vector<std::string> environment_with(const std::vector<std::string>& overrides);

}  // namespace moe::launch
