// Predicted step time of one rank from its counts and a hardware profile (docs/PLANNER.md,
// "Time"): GEMMs at the device's measured or assumed rate, memory-bound work at its bandwidth,
// a fixed cost per tensor operation, collectives by latency + bytes / bandwidth over the links
// the layout uses, and the overlaps the engine makes.
#pragma once

#include <map>
#include <string>

#include "plan/hardware_profile.h"
#include "plan/step_counts.h"

namespace moe::plan {

struct StepPrediction {
  StepCounts counts;
  // The engine's phase names: gate, dispatch, a2a, experts, combine, other, backward, allreduce,
  // optimizer (a2a: forward all-to-all and weight gathers; backward includes its own).
  std::map<std::string, double> phases_ms;
  double step_ms = 0, tokens_per_s = 0;
  double compute_ms = 0, a2a_ms = 0, allreduce_ms = 0;  // the three parts of step_ms
  double memory_bytes = 0;                              // counts' memory + the runtime's
  bool fits = true;                                     // memory_bytes <= the device's memory
  int64_t ranks_per_device = 1;                         // ranks of a node sharing one device
};

StepPrediction predict_step(const StepCounts& counts, const HardwareProfile& profile,
                            const std::string& dtype);
// count_step then predict_step with the config's dtype.
StepPrediction predict(const protocol::RunConfig& config, const Layout& layout,
                       const HardwareProfile& profile);

}  // namespace moe::plan
