#pragma once
// A Slurm cluster of the test's own for its lifetime (tests/e2e/launchers/slurm_cluster.sh): one
// node on this machine, or one node per test host (slurmctld on host 0) when given their name.
#include <string>

namespace moe::test {

class SlurmCluster {
 public:
  // hosts: the name of test hosts already up (TestHosts), "" for this machine alone.
  explicit SlurmCluster(std::string dir, const std::string& hosts = {}, int count = 1);
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  bool started() const { return started_; }
  const std::string& error() const { return error_; }  // the script's message, and why
  std::string conf() const { return dir_ + "/slurm.conf"; }

 private:
  std::string dir_, error_;
  bool started_ = false;
};

}  // namespace moe::test
