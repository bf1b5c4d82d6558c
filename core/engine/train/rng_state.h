#pragma once
// The state of every generator a run draws from (gate noise, initialisation, dropout) as text for
// state.json, so that a resumed run draws the same numbers as an uninterrupted one: the default
// CPU generator always, and the compute device's default generator when the run is on CUDA.
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <string>

namespace moe::train {

// One generator's state as hex, and back. set_generator_state throws std::invalid_argument when
// `hex` is not a state of this generator's kind that this LibTorch wrote.
std::string generator_state(at::Generator gen);
void set_generator_state(at::Generator gen, const std::string& hex);

// The default CPU generator's state.
std::string save_rng_state();
void restore_rng_state(const std::string& hex);

// state.json's fields: "rng" (the CPU's, as save_rng_state) and, for a run on a CUDA device,
// "rng_cuda" (that device's default generator).
void save_run_rng(nlohmann::json& state, const at::Device& device);
// Restores what `state` has for this run: "rng" always (required), "rng_cuda" only when the run
// now computes on CUDA (a checkpoint from a CPU run leaves the device generator as seeded).
void restore_run_rng(const nlohmann::json& state, const at::Device& device);

}  // namespace moe::train
