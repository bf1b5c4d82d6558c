#pragma once
// Where this process sits in a multi-process run: its rank, the number of ranks, its place on its
// node, and where rank 0 listens for the rendezvous. Read from the variables the launcher set
// (docs/PROTOCOL.md, "moe-train launch"); no Torch, so the launcher and its tests link it alone.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace moe::launch {

// A variable holds a value that cannot describe a run; what() names the variable and its value.
// moe-train exits with status 2 on it.
struct LayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RankLayout {
  int64_t rank = 0, world_size = 1, local_rank = 0, local_world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 0;  // 0 only for a single process, which needs no rendezvous
  // Who set the environment: "single", "torchrun" (moe-train launch too), "slurm", "openmpi".
  std::string source = "single";
  // torchrun's agent already serves the rendezvous store at the master address and port
  // (TORCHELASTIC_USE_AGENT_STORE=True): rank 0 connects to it instead of starting one.
  bool agent_store = false;
};

// A variable's value, or nullopt when it is not set. An empty value counts as not set.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// The first launcher whose variables are present decides: torchrun (RANK and WORLD_SIZE), then
// Open MPI (OMPI_COMM_WORLD_RANK), then Slurm (SLURM_PROCID and SLURM_NTASKS); none: a single
// process. Open MPI comes before Slurm because mpirun inside a Slurm job hands its ranks Slurm
// variables (the batch script's, or its daemons') that do not describe them. Throws LayoutError.
RankLayout rank_layout_from_environment(const EnvLookup& env);
RankLayout rank_layout_from_environment();  // from ::getenv

}  // namespace moe::launch
