#pragma once
// A run that cannot start because of what the user gave (config values this engine cannot run,
// a run directory that already holds a run, no checkpoint to resume). moe-train exits with 2.
#include <stdexcept>

namespace moe::train {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace moe::train
