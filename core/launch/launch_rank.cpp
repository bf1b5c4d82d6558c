#include "launch/launch_rank.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <set>
#include <system_error>

#include "launch/launch_signals.h"

extern char** environ;

namespace moe::launch {
namespace {

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

struct Pipe {
  int read = -1, write = -1;
  void open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
      throw std::system_error(errno, std::generic_category(), "pipe for a rank's output");
    read = fds[0];
    write = fds[1];
  }
  void close_both() {
    if (read >= 0) close(read);
    if (write >= 0) close(write);
    read = write = -1;
  }
};

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void become_rank(pid_t launcher, const sigset_t& mask, const Pipe& out,
                              const Pipe& err, const char* exe, char** argv, char** envp,
                              const std::string& exec_failed) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != launcher) _exit(128 + SIGKILL);  // the launcher died before prctl took hold
  for (int sig : LaunchSignals::kHandled) signal(sig, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  pthread_sigmask(SIG_SETMASK, &mask, nullptr);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  if (out.write >= 0) dup2(out.write, STDOUT_FILENO);
  if (err.write >= 0) dup2(err.write, STDERR_FILENO);
  execve(exe, argv, envp);
  [[maybe_unused]] ssize_t n = write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
  _exit(127);
}

}  // namespace

std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::set<std::string> replaced;
  for (const auto& kv : overrides) replaced.insert(kv.substr(0, kv.find('=')));
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    if (!replaced.count(kv.substr(0, kv.find('=')))) env.push_back(kv);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

StartedRank start_rank(const RankCommand& command) {
  // Everything the child needs is built before fork: it may only make async-signal-safe calls.
  std::vector<std::string> argv_strings{command.executable}, env_strings = command.environment;
  argv_strings.insert(argv_strings.end(), command.args.begin(), command.args.end());
  std::vector<char*> argv = pointers(argv_strings), envp = pointers(env_strings);
  const std::string exec_failed = "moe-train launch: cannot execute " + command.executable + "\n";
  Pipe out, err;
  if (command.capture_output) {
    out.open();
    err.open();
  }
  // The launcher's handlers must not run in the child before exec resets them.
  sigset_t blocked, previous;
  sigemptyset(&blocked);
  for (int sig : LaunchSignals::kHandled) sigaddset(&blocked, sig);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  const pid_t launcher = getpid();
  const pid_t pid = fork();
  if (pid == 0)
    become_rank(launcher, previous, out, err, command.executable.c_str(), argv.data(), envp.data(),
                exec_failed);
  const int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) {
    out.close_both();
    err.close_both();
    throw std::system_error(fork_errno, std::generic_category(), "fork for a rank");
  }
  setpgid(pid, pid);  // also here, so the group exists before the launcher signals it
  StartedRank started{pid, out.read, err.read};
  for (Pipe* p : {&out, &err}) {
    if (p->write >= 0) close(p->write);
    if (p->read >= 0) fcntl(p->read, F_SETFL, fcntl(p->read, F_GETFL) | O_NONBLOCK);
  }
  return started;
}

}  // namespace moe::launch
