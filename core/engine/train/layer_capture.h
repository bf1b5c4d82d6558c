#pragma once
// telemetry.capture_every (docs/PROTOCOL.md, "The run directory", captures/): on every capture
// step, each MoE layer's input of the step's first micro-batch and the weights that routed it go to
// <run-dir>/captures/step-<s>/layer-<i>.safetensors, under the names `moe-train replay` reads, so a
// captured step can be replayed with other routing settings. Rank 0 writes the files (the experts
// gathered from every rank, the input of the global batch) and then one `capture` event per layer.
// The files stay within telemetry.capture_max_mb; the first step that would pass it ends capturing.
#include <cstdint>
#include <string>
#include <vector>

#include "dist/process_group.h"
#include "io/safetensors.h"
#include "model/model.h"
#include "protocol/run_config.h"
#include "protocol/telemetry_writer.h"
#include "train/expert_shards.h"
#include "train/run_log.h"

namespace moe::train {

// One MoE layer's tensors as a capture keeps them: copies (the optimizer changes the weights
// before they are written) of its parameters under `prefix` + their names, its input as [N, M] in
// the parameters' dtype, and the selection bias when bias balancing routes.
struct CapturedLayer {
  io::TensorMap weights;
  at::Tensor input;
  at::Tensor selection_bias;  // undefined unless bias balancing decides the routing
};
CapturedLayer capture_layer(layer::MoeLayerImpl& module, const std::string& prefix,
                            const at::Tensor& input);

// The file `moe-train replay` and the What-if view read, of a layer captured with prefix "":
// the weights under the layer's own names, `input` and `selection_bias`.
io::TensorMap capture_file(CapturedLayer captured);

class LayerCapture {
 public:
  // Made only when telemetry.capture_every > 0; `model`, `shards`, `group`, `telemetry` and `log`
  // must outlive it.
  LayerCapture(const protocol::TelemetryConfig& config, const std::string& run_dir,
               model::ModelImpl& model, const ExpertShards& shards, dist::ProcessGroup& group,
               protocol::TelemetryWriter& telemetry, RunLog& log);
  ~LayerCapture();
  LayerCapture(const LayerCapture&) = delete;
  LayerCapture& operator=(const LayerCapture&) = delete;

  // Steps capture_every, 2 * capture_every, ... (optimizer steps, from 1), until the size limit.
  bool captures(int64_t step) const;
  // Before a capture step: each layer's next forward pass keeps a copy of its input and weights.
  void before_step(int64_t step);
  // After it: every rank sends its part (a collective: every rank calls it), rank 0 writes.
  void after_step(int64_t step);

  static std::string relative_path(int64_t step, int64_t layer);
  // "layer-<i>.safetensors": the i-th MoE layer of the model (analyze --capture names them so too).
  static std::string file_name(int64_t layer);

 private:
  struct Layer {
    layer::MoeLayerImpl* module = nullptr;
    std::string prefix;  // its parameters' prefix in the model ("blocks.1.moe.")
    bool taken = false;
    CapturedLayer captured;  // this rank's: the weights by the model's names, input [N, M]
  };
  // The files of `step` as rank 0 writes them (every rank computes the gathers).
  std::vector<io::TensorMap> gather(int64_t step);
  // Rank 0: writes the step's files and events unless they would pass the limit; false when
  // capturing ends (the limit, or a file that could not be written).
  bool write(int64_t step, const std::vector<io::TensorMap>& files);
  // Whether the step's files stay within the limit (else a warning); rank 0.
  bool fits(int64_t step, const std::vector<io::TensorMap>& files) const;
  // Writes one layer's file; its event (written by the caller). Throws when it cannot be written.
  protocol::CaptureEvent write_file(int64_t step, size_t layer, const io::TensorMap& file);
  std::string file_path(int64_t step, size_t layer) const;
  void stop_observing();

  int64_t every_;
  int64_t max_bytes_;
  std::string dir_;  // <run-dir>/captures
  std::vector<Layer> layers_;
  const ExpertShards& shards_;
  dist::ProcessGroup& group_;
  protocol::TelemetryWriter& telemetry_;
  RunLog& log_;
  int64_t used_bytes_ = 0;  // rank 0: what captures/ holds
  bool stopped_ = false;
};

}  // namespace moe::train
