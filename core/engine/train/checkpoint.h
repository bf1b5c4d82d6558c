#pragma once
// Checkpoints (docs/PROTOCOL.md, "The run directory"): <run-dir>/checkpoints/step-<n>/ holds
// model.safetensors (weights by the names of docs/ROUTING.md, "Parameter names", buffers, MoE
// selection biases), optimizer.safetensors and state.json (step, data position, RNG state). A
// checkpoint is assembled in a temporary directory and renamed into place, so a step-<n> directory
// is always complete: a kill at any moment never leaves a half-written one where resume would pick
// it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "protocol/run_layout.h"

namespace moe::train {

// The files of a step directory.
inline constexpr const char* kCheckpointModelFile = "model.safetensors";
inline constexpr const char* kCheckpointOptimizerFile = "optimizer.safetensors";
inline constexpr const char* kCheckpointStateFile = protocol::run_layout::kCheckpointState;

struct Checkpoint {
  io::TensorMap model;
  io::TensorMap optimizer;
  nlohmann::json state;  // "step", "data_position", "rng", ...
};

// Writes `checkpoint` as <checkpoints_dir>/step-<step>/ and then keeps only the `keep` newest
// step directories. Returns the new directory. std::runtime_error on I/O failure (the previous
// checkpoints stay, the temporary directory goes). The temporary directory is named after its
// writer (host and pid); a save removes only temporaries of this process or of a process on this
// host that is gone, never those of another live writer.
std::string save_checkpoint(const std::string& checkpoints_dir, int64_t step,
                            const Checkpoint& checkpoint, int64_t keep);

// The newest complete step-<n> directory under `checkpoints_dir`, if any. Temporary directories
// of an interrupted save are ignored.
std::optional<std::string> latest_checkpoint(const std::string& checkpoints_dir);

// n for a step directory named step-<n> (its last path component), else nullopt.
std::optional<int64_t> checkpoint_step(const std::string& step_dir);

// Reads a step directory. io::SafetensorsError or std::runtime_error (naming the file) when a part
// is missing or damaged.
Checkpoint load_checkpoint(const std::string& step_dir);

}  // namespace moe::train
