#include "launch/rank_layout.h"

#include <cstdlib>
#include <vector>

#include "launch/slurm_lists.h"

namespace moe::launch {
namespace {

constexpr int64_t kMaxCount = 2147483647;  // c10d counts ranks in an int
constexpr int kSlurmPortBase = 20000, kSlurmPortSpan = 20000;

[[noreturn]] void fail(const std::string& name, const std::string& value, const std::string& why) {
  throw LayoutError(name + "=" + value + ": " + why);
}

// Reads and checks variables, naming the variable in every error.
class Variables {
 public:
  explicit Variables(const EnvLookup& lookup) : lookup_(lookup) {}

  std::optional<std::string> get(const std::string& name) const {
    auto value = lookup_(name);
    if (value && value->empty()) return std::nullopt;
    return value;
  }
  bool has(const std::string& name) const { return get(name).has_value(); }

  // A whole number >= 0; nullopt when not set.
  std::optional<int64_t> count(const std::string& name) const {
    auto value = get(name);
    if (!value) return std::nullopt;
    const std::string& v = *value;
    const size_t digits_from = v[0] == '-' ? 1 : 0;
    if (v.size() == digits_from) fail(name, v, "not a whole number");
    for (size_t i = digits_from; i < v.size(); ++i)
      if (v[i] < '0' || v[i] > '9') fail(name, v, "not a whole number");
    if (digits_from) fail(name, v, "must not be negative");
    // Ten digits at most, so strtoll cannot overflow.
    if (v.size() > 10 || std::strtoll(v.c_str(), nullptr, 10) > kMaxCount)
      fail(name, v, "must be at most " + std::to_string(kMaxCount));
    return std::strtoll(v.c_str(), nullptr, 10);
  }
  int64_t required_count(const std::string& name) const {
    auto n = count(name);
    if (!n) throw LayoutError(name + " is not set");
    return *n;
  }
  std::optional<int> port(const std::string& name) const {
    auto n = count(name);
    if (n && (*n < 1 || *n > 65535)) fail(name, *get(name), "must be a port from 1 to 65535");
    if (n) return static_cast<int>(*n);
    return std::nullopt;
  }

 private:
  const EnvLookup& lookup_;
};

// The names the layout's numbers came from, for the messages of check().
struct Names {
  std::string rank, world, local_rank, local_world;
};

void check(const RankLayout& l, const Names& n, const std::string& port_name) {
  const auto shown = [](const std::string& name, int64_t v) {
    return name + "=" + std::to_string(v);
  };
  if (l.world_size < 1) fail(n.world, std::to_string(l.world_size), "must be at least 1");
  if (l.rank >= l.world_size)
    fail(n.rank, std::to_string(l.rank), "must be less than " + shown(n.world, l.world_size));
  if (l.local_world_size < 1)
    fail(n.local_world, std::to_string(l.local_world_size), "must be at least 1");
  if (l.local_world_size > l.world_size)
    fail(n.local_world, std::to_string(l.local_world_size),
         "must be at most " + shown(n.world, l.world_size));
  if (l.local_rank >= l.local_world_size)
    fail(n.local_rank, std::to_string(l.local_rank),
         "must be less than " + shown(n.local_world, l.local_world_size));
  if (l.world_size > 1 && l.master_port == 0)
    fail(n.world, std::to_string(l.world_size),
         "a run of several ranks needs " + port_name +
             " (rank 0's rendezvous port), which is not set");
}

RankLayout from_torchrun(const Variables& v) {
  RankLayout l;
  l.source = "torchrun";
  l.rank = v.required_count("RANK");
  l.world_size = v.required_count("WORLD_SIZE");
  // Set by hand without the local pair: taken as one node.
  l.local_rank = v.count("LOCAL_RANK").value_or(l.rank);
  l.local_world_size = v.count("LOCAL_WORLD_SIZE").value_or(l.world_size);
  l.master_addr = v.get("MASTER_ADDR").value_or(l.master_addr);
  l.master_port = v.port("MASTER_PORT").value_or(0);
  l.agent_store = v.get("TORCHELASTIC_USE_AGENT_STORE").value_or("") == "True";
  check(l, {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"}, "MASTER_PORT");
  return l;
}

RankLayout from_openmpi(const Variables& v) {
  RankLayout l;
  l.source = "openmpi";
  l.rank = v.required_count("OMPI_COMM_WORLD_RANK");
  l.world_size = v.required_count("OMPI_COMM_WORLD_SIZE");
  l.local_rank = v.count("OMPI_COMM_WORLD_LOCAL_RANK").value_or(l.rank);
  l.local_world_size = v.count("OMPI_COMM_WORLD_LOCAL_SIZE").value_or(l.world_size);
  l.master_port = v.port("MASTER_PORT").value_or(0);
  if (l.world_size > 1)
    for (const char* name : {"MASTER_ADDR", "MASTER_PORT"})
      if (!v.has(name))
        throw LayoutError(std::string("Open MPI started ") + std::to_string(l.world_size) +
                          " ranks but " + name +
                          " is not set: pass rank 0's host and a free port to every rank "
                          "(mpirun -x MASTER_ADDR=host -x MASTER_PORT=port)");
  l.master_addr = v.get("MASTER_ADDR").value_or(l.master_addr);
  check(l,
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
         "OMPI_COMM_WORLD_LOCAL_SIZE"},
        "MASTER_PORT");
  return l;
}

// The first of `names` that is set, or "" when none is.
std::string first_set(const Variables& v, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (v.has(name)) return name;
  return "";
}

// This node's task count: srun's per-node list for this step, taking the entry SLURM_NODEID
// indexes when the nodes differ. `name` becomes the variable it came from.
int64_t slurm_local_world(const Variables& v, int64_t world, std::string& name) {
  name =
      first_set(v, {"SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE", "SLURM_NTASKS_PER_NODE"});
  if (name.empty()) {  // no per-node figure: one node
    name = "SLURM_NTASKS";
    return world;
  }
  const std::string value = *v.get(name);
  std::vector<int64_t> counts;
  try {
    counts = expand_tasks_per_node(value);
  } catch (const std::invalid_argument& e) {
    fail(name, value, e.what());
  }
  bool uniform = true;
  for (int64_t c : counts) uniform = uniform && c == counts.front();
  if (uniform) return counts.front();
  const int64_t node = v.required_count("SLURM_NODEID");
  if (node >= static_cast<int64_t>(counts.size()))
    fail("SLURM_NODEID", std::to_string(node),
         "beyond the " + std::to_string(counts.size()) + " nodes of " + name + "=" + value);
  return counts[node];
}

std::string slurm_master_addr(const Variables& v) {
  if (auto addr = v.get("MASTER_ADDR")) return *addr;
  const std::string name =
      first_set(v, {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST", "SLURM_NODELIST"});
  if (name.empty()) return RankLayout{}.master_addr;
  const std::string value = *v.get(name);
  try {
    return expand_hostlist(value).front();
  } catch (const std::invalid_argument& e) {
    fail(name, value, e.what());
  }
}

RankLayout from_slurm(const Variables& v) {
  RankLayout l;
  l.source = "slurm";
  l.rank = v.required_count("SLURM_PROCID");
  l.world_size = v.required_count("SLURM_NTASKS");
  l.local_rank = v.required_count("SLURM_LOCALID");
  std::string local_world_name;
  l.local_world_size = slurm_local_world(v, l.world_size, local_world_name);
  l.master_addr = slurm_master_addr(v);
  std::string port_name = "MASTER_PORT";
  if (auto port = v.port("MASTER_PORT")) {
    l.master_port = *port;
  } else if (auto job = v.count("SLURM_JOB_ID")) {
    // Every rank of the job derives the same port without talking to the others.
    l.master_port = kSlurmPortBase + static_cast<int>(*job % kSlurmPortSpan);
  } else {
    port_name = "MASTER_PORT or SLURM_JOB_ID";
  }
  check(l, {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", local_world_name}, port_name);
  return l;
}

}  // namespace

RankLayout rank_layout_from_environment(const EnvLookup& env) {
  const Variables v(env);
  if (v.has("RANK") && v.has("WORLD_SIZE")) return from_torchrun(v);
  if (v.has("OMPI_COMM_WORLD_RANK") && v.has("OMPI_COMM_WORLD_SIZE")) return from_openmpi(v);
  if (v.has("SLURM_PROCID") && v.has("SLURM_NTASKS")) return from_slurm(v);
  return RankLayout{};
}

RankLayout rank_layout_from_environment() {
  return rank_layout_from_environment([](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  });
}

}  // namespace moe::launch
