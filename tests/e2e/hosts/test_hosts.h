#pragma once
// Several hosts on this machine for the multi-host tests: network namespaces on a bridge of their
// own, each with its own address and hostname (tests/e2e/hosts/test_hosts.sh). Made by the
// constructor; removed with every process in them by the destructor, and, after a test that
// crashed, by the next constructor of the same name.
#include <string>
#include <vector>

namespace moe::test {

class TestHosts {
 public:
  // name: at most 19 of a-z 0-9 -, one per test (tests that run at once get other subnets).
  // Throws std::runtime_error with the script's message when the hosts cannot be made.
  TestHosts(std::string name, int count);
  ~TestHosts();
  TestHosts(const TestHosts&) = delete;
  TestHosts& operator=(const TestHosts&) = delete;

  // Root can make network namespaces; the tests say they skip otherwise.
  static bool can_make_hosts();

  const std::string& name() const { return name_; }
  std::string address(int host) const;  // "10.S.T.<host + 1>"
  std::string hostname(int host) const { return name_ + "-h" + std::to_string(host); }
  // The program and arguments that run `command` on `host` (for MoeTrainProcess).
  std::string runner() const;
  std::vector<std::string> on_host(int host, const std::vector<std::string>& command) const;
  // Cuts host's link (down) or restores it.
  void set_link(int host, bool up) const;
  // test_hosts.sh shape: {"rate", "1gbit"}, {"loss", "30"}; empty clears it.
  void shape(int host, const std::vector<std::string>& args) const;
  // The pids of every process on `host` (none once the run has ended there).
  std::vector<int> processes(int host) const;

 private:
  std::string script(const std::vector<std::string>& args) const;  // runs it; its stdout
  std::string name_;
  int count_ = 0;
};

}  // namespace moe::test
