#pragma once
// Shared pieces of the `moe-train run` end-to-end tests: tiny configs, small datasets written in
// the real file formats, and the telemetry stream split into JSON events.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process.h"

namespace moe::test {

// A tiny, fast RunConfig for model `kind` ("helloworld", "lm", "image") as JSON; callers adjust
// it further.
nlohmann::json tiny_config(const std::string& kind);

// MNIST-format IDX files (train-*, t10k-*, plain) in `dir` with 28x28 images whose label is
// learnable (the brighter quadrant). Returns `dir`.
std::string write_idx_dataset(const std::string& dir, int train, int test);
// CIFAR-10 binary files: data_batch_1.bin and test_batch.bin with `train` / `test` records.
std::string write_cifar_dataset(const std::string& dir, int train, int test);
// About `bytes` of English-like text.
std::string write_text_file(const std::string& path, size_t bytes);

// The JSON lines of a telemetry stream (every line must parse).
std::vector<nlohmann::json> events_of(const std::string& stream);
std::vector<nlohmann::json> events_of_type(const std::vector<nlohmann::json>& events,
                                           const std::string& type);
// step -> loss of the step events (a later event for the same step wins).
std::map<int64_t, double> step_losses(const std::vector<nlohmann::json>& events);

// Waits until the file `metrics` holds an event of `type` with "step" >= `step`; false when 60 s
// pass first.
bool wait_for_event(const std::string& metrics, const std::string& type, int64_t step);

// Writes `config` to dir/name and returns its path.
std::string write_config(const TempDir& dir, const std::string& name, const nlohmann::json& config);

}  // namespace moe::test
