#pragma once
// Failures that can happen on one rank alone (its disk, its files, a stale directory listing):
// every rank learns at one small collective whether any rank failed and then stops with that
// rank's error, instead of waiting out parallel.timeout_s in the next collective while the
// failed rank is already gone.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "dist/process_group.h"

namespace moe::train {

// Another rank failed; what() names it and carries its error.
struct PeerFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs `work` here; then, on every rank alike, returns when no rank's work threw. Otherwise this
// rank's own exception is rethrown where it had one, and PeerFailed ("rank 0 failed while
// <during>: <its error>", the lowest failing rank) is thrown on the others.
void on_every_rank(dist::ProcessGroup& group, const std::string& during,
                   const std::function<void()>& work);

// The same, with the stop signal that this rank saw (0 for none) reduced in the same collective:
// returns the highest signal any rank saw.
int agree_on_stop(dist::ProcessGroup& group, int stop_signal, const std::string& during,
                  const std::function<void()>& work);

}  // namespace moe::train
