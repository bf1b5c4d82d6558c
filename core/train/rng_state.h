#pragma once
// The default CPU generator's state (gate noise, initialisation) as text for state.json, so that
// a resumed run draws the same noise as an uninterrupted one.
#include <string>

namespace moe::train {

std::string save_rng_state();
// std::invalid_argument when `hex` is not a state this LibTorch wrote.
void restore_rng_state(const std::string& hex);

}  // namespace moe::train
