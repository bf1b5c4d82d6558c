// A hardware profile: what the planner assumes about one device and the links between devices
// (docs/PLANNER.md, "Profiles"). Every assumption is a named field; shipped profiles
// (resources/profiles/*.json) give each figure's public source in a comment, and `moe-train
// bench --calibrate` writes a measured one. Torch-free: the app and the engine both read them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moe::plan {

// A GEMM rate measured at one shape: `batch` products [m, k] x [k, n] in one batched call (as the
// experts run), in `dtype`, FLOP/s of one process with 1/`ranks` of the device's threads while
// `ranks` such processes run at once (1: the whole device; 2: two ranks sharing a CPU).
// backward_flops_per_s: the same product's two backward GEMMs (input and weight gradient, with
// the operand layouts autograd gives them), FLOP/s over both; 0: as forward. expert_ffn: not one
// GEMM but the engine's whole expert FFN on `batch` experts of m rows, M = k, H = n (fc1,
// activation, fc2; its FLOPs count both GEMMs).
struct GemmRate {
  int64_t m = 0, k = 0, n = 0, batch = 1, ranks = 1;
  std::string dtype = "float32";
  double flops_per_s = 0, backward_flops_per_s = 0;
  bool expert_ffn = false;
};

// What the planner asks a profile for: the rate of the GEMM work of one phase.
struct GemmQuery {
  int64_t m = 0, k = 0, n = 0, batch = 1;
  int64_t ranks = 1;        // ranks sharing the device
  bool backward = false;    // the backward of that work
  bool expert_ffn = false;  // the experts' FFN (entries measured as one are preferred)
};

struct DeviceProfile {
  std::string name;
  // Dense peak FLOP/s of one device per dtype (0: not supported; float16 runs as float32).
  double peak_flops_float32 = 0, peak_flops_bfloat16 = 0, peak_flops_float64 = 0;
  double gemm_efficiency = 0.7;  // share of peak a GEMM reaches where no measured rate is closer
  double memory_bandwidth = 0;   // bytes/s that memory-bound phases (copies, element-wise) move
  double memory_bytes = 0;       // memory of one device
  double runtime_bytes = 0;      // what a process holds before the model (context, libraries)
  double op_overhead_s = 0;      // fixed cost of one tensor operation (launch, dispatch)
  int64_t devices_per_node = 1;  // ranks beyond this on a node share a device (a CPU: 1)
  std::vector<GemmRate> gemm_rates;  // measured; the nearest shape wins over peak x efficiency
};

// Collective figures over one kind of link, for `ranks` ranks taking part (0: any number).
// Bandwidths are per rank: all-to-all bytes one rank sends per second; all-reduce "bus
// bandwidth" (a ring all-reduce of S bytes on W ranks takes 2 (W-1)/W S / bandwidth).
struct LinkProfile {
  std::string name;
  int64_t ranks = 0;
  double all_to_all_latency_s = 0, all_to_all_bandwidth = 0;
  double all_reduce_latency_s = 0, all_reduce_bandwidth = 0;
};

struct HardwareProfile {
  std::string name;         // as `--profile` names it ("h100-sxm", "this machine", a file)
  std::string description;  // one line for lists
  DeviceProfile device;
  std::vector<LinkProfile> intra_node;  // between ranks of a node; several: measured per count
  LinkProfile inter_node;               // between nodes, per rank (its share of the NICs)
  // How much of the gradient all-reduce hides behind backward when the gradients fill more than
  // one bucket (the engine starts a full bucket's all-reduce during backward).
  double allreduce_overlap = 0.8;

  // The intra-node entry measured with the number of ranks nearest to `ranks`.
  const LinkProfile& intra_node_for(int64_t ranks) const;
  // FLOP/s of one GEMM [m, k] x [k, n] in dtype on a whole device: the measured rate of the
  // nearest shape, else peak x efficiency; a dtype with neither takes float32's.
  // With `ranks` sharing the device the entries measured with that share of the threads are
  // preferred; the rate is the device's (an entry's rate times its ranks).
  double gemm_rate(int64_t m, int64_t k, int64_t n, const std::string& dtype, int64_t batch = 1,
                   int64_t ranks = 1) const;
  // The same for a query: its backward rate where asked and measured, entries of its kind (plain
  // GEMM or expert FFN) before the other kind.
  double gemm_rate(const GemmQuery& q, const std::string& dtype) const;
  double peak_flops(const std::string& dtype) const;
};

// A profile from JSON text (comments allowed). Throws std::invalid_argument naming `origin` and
// the field on a missing or bad figure.
HardwareProfile parse_profile(const std::string& text, const std::string& origin);
std::string profile_json(const HardwareProfile& profile);  // what parse_profile reads back

// The shipped device profiles' names ("h100-sxm", ...) and network profiles ("ib-ndr", ...).
std::vector<std::string> shipped_profile_names();
std::vector<std::string> shipped_network_names();

// `--profile` argument: a shipped NAME, NAME+NETWORK (the device with another inter-node link),
// or a file. Throws std::invalid_argument with what was tried.
HardwareProfile load_profile(const std::string& name_or_file);

}  // namespace moe::plan
