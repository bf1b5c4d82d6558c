#pragma once
// What the user gave is wrong: an argument, a config value this engine cannot run, a run directory
// that already holds a run, no checkpoint or a damaged one to resume from, a tensor file of the
// wrong shape. The message names the file, key or tensor. moe-train exits with status 2.
// (ConfigError, data::DataError and io::SafetensorsError from reading are exit 2 as well; they
// carry more structure.)
#include <stdexcept>

namespace moe::train {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace moe::train
