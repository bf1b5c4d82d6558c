#pragma once
// The collectives between local ranks for a calibrated profile: each rank of a `moe-train launch`
// times all_to_all and all_reduce_sum over the engine's process group at several sizes, and
// rank 0 fits latency and bandwidth; the calibrating process starts those ranks as a child.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "bench/calibrate.h"
#include "dist/process_group.h"
#include "plan/hardware_profile.h"

namespace moe::bench {

// t = intercept + slope * x, with x ascending: the slope by least squares (the large messages
// decide it: what the planner's large all-to-alls see), the intercept the time of the faster of
// the two smallest messages (4 and 64 KiB per rank). Times per byte grow with the message on a
// loopback Gloo, so no one line fits both ends: a least-squares intercept, even weighted by
// relative error, came out at a fifth of the 4 KiB time, and so did the small messages' times
// less their bytes at the large messages' rate.
struct LineFit {
  double intercept = 0, slope = 0;
};
LineFit fit_line(const std::vector<double>& x, const std::vector<double>& t);

// Every rank calls it; the figures are the same on every rank (the slowest rank's medians). The
// link is named for its ranks and, over several, its nodes.
plan::LinkProfile measure_collectives(dist::ProcessGroup& group, const at::Device& device,
                                      bool quick, int64_t nodes = 1);

// A link file as `bench --calibrate-link` writes it. Throws std::invalid_argument naming `where`
// and what is wrong (unreadable, not JSON, a missing or bad figure).
plan::LinkProfile read_link_file(const std::string& path, const std::string& where);

// Starts `nproc` local ranks (moe-train launch ... bench --calibrate-link), passing their
// output through to stderr, and returns what rank 0 measured. Throws std::runtime_error with the
// tail of the ranks' stderr when they fail.
plan::LinkProfile run_collectives_child(int nproc, const CalibrateOptions& options);

}  // namespace moe::bench
