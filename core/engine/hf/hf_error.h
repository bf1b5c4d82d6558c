#pragma once
// A Hugging Face model folder this engine cannot read or honour: an unknown model_type, a config
// key with a value the engine does not implement, a missing or unexpected tensor. The message
// names the file and the key or tensor. moe-train exits with status 2.
#include <stdexcept>

namespace moe::hf {

struct HfError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace moe::hf
