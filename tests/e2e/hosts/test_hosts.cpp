#include "test_hosts.h"

#include <unistd.h>

#include <sstream>
#include <stdexcept>

#include "../process.h"

namespace moe::test {

TestHosts::TestHosts(std::string name, int count) : name_(std::move(name)), count_(count) {
  script({"up", name_, std::to_string(count)});
}

TestHosts::~TestHosts() {
  try {
    script({"down", name_});
  } catch (const std::exception&) {
    // Left for the next constructor of this name, which removes them first.
  }
}

bool TestHosts::can_make_hosts() {
  return geteuid() == 0;
}

std::string TestHosts::runner() const {
  return MOE_TEST_HOSTS_SCRIPT;
}

std::string TestHosts::script(const std::vector<std::string>& args) const {
  const ProcessResult r = run_program(runner(), args);
  if (r.exit_status != 0) {
    std::string command = "test_hosts.sh";
    for (const auto& a : args) command += " " + a;
    throw std::runtime_error(command + " exited with " + std::to_string(r.exit_status) + ": " +
                             r.err);
  }
  return r.out;
}

std::string TestHosts::address(int host) const {
  std::string a = script({"addr", name_, std::to_string(host)});
  while (!a.empty() && (a.back() == '\n' || a.back() == ' ')) a.pop_back();
  return a;
}

std::vector<std::string> TestHosts::on_host(int host,
                                            const std::vector<std::string>& command) const {
  std::vector<std::string> args{"run", name_, std::to_string(host)};
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

void TestHosts::set_link(int host, bool up) const {
  script({"link", name_, std::to_string(host), up ? "up" : "down"});
}

void TestHosts::shape(int host, const std::vector<std::string>& args) const {
  std::vector<std::string> all{"shape", name_, std::to_string(host)};
  all.insert(all.end(), args.begin(), args.end());
  script(all);
}

std::vector<int> TestHosts::processes(int host) const {
  std::istringstream pids(run_program("ip", {"netns", "pids", hostname(host)}).out);
  std::vector<int> out;
  for (int pid; pids >> pid;) out.push_back(pid);
  return out;
}

}  // namespace moe::test
