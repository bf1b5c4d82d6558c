#pragma once
// moe-train bench --calibrate: this machine measured into a planner profile (docs/PLANNER.md,
// "Calibrating this machine"): GEMM rates at the shapes the planner looks up, memory bandwidth,
// the cost of one tensor operation, what a process holds before the model, and the collectives
// between local ranks (moe-train launch runs `bench --calibrate-link` on each); the link between
// nodes from a file that `bench --calibrate-link` measured across them (--inter-node).
#include <string>
#include <vector>

namespace moe::bench {

struct CalibrateOptions {
  std::vector<std::string>
      configs;              // RunConfig files whose GEMM shapes to measure (none: defaults)
  std::string json_out;     // the profile file
  std::vector<int> nprocs;  // local rank counts for the collectives (empty: the default)
  bool quick = false;       // fewer shapes, sizes and repeats (tests, a first look)
  std::string inter_node;   // a link file of bench --calibrate-link across nodes (empty: a copy)
};

// The whole calibration; writes the profile to options.json_out. Returns the exit status.
int run_calibrate(const CalibrateOptions& options);

// One rank of the collectives' measurement (bench --calibrate-link), started by run_calibrate
// through moe-train launch, or by a user's launcher on several nodes: rank 0 writes the fitted
// link figures (a LinkProfile as JSON) to options.json_out.
int run_calibrate_collectives(const CalibrateOptions& options);

}  // namespace moe::bench
