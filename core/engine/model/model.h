#pragma once
// The models of docs/PROTOCOL.md, "RunConfig" (helloworld, lm, image) behind one interface the
// trainer drives.
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/batch_source.h"
#include "layer/load_metrics.h"
#include "layer/moe_layer.h"
#include "protocol/run_config.h"

namespace moe::model {

struct ModelOutput {
  at::Tensor task_loss;  // 0-d float32 (float64 for float64 models), mean over the batch
  at::Tensor aux_loss;   // 0-d, sum of l_aux over the MoE layers (float32 or float64)
  at::Tensor z_loss;     // 0-d, sum of the router z-losses
  std::vector<layer::LayerLoad> load;  // one per MoE layer, in layer order (on the device)
  int64_t tokens = 0;                  // tokens that went through each MoE layer (B x positions)
  at::Tensor
      correct;  // image: correctly classified samples (0-d int64 on the device); else undefined
};

struct ParameterCounts {
  int64_t experts = 0;  // parameters inside the experts of every MoE layer
  int64_t dense = 0;    // everything else (embeddings, attention, gates, norms, heads)
  int64_t total() const { return experts + dense; }
};

class ModelImpl : public torch::nn::Module {
 public:
  // Forward on one (micro-)batch already moved to the model's device.
  virtual ModelOutput forward(const data::Batch& batch) = 0;
  // The MoE layers in order (for bias balancing and per-layer telemetry).
  virtual std::vector<layer::MoeLayer> moe_layers() const = 0;
  ParameterCounts parameter_counts();
  // The parameters' dtype (train.dtype after make_model); inputs are cast to it.
  at::ScalarType dtype();
};

// The dtype losses are reported in for a model in `dtype`: float64 stays, the rest is float32.
at::ScalarType loss_dtype(at::ScalarType dtype);
// train.dtype as a torch dtype ("float16" trains in float32 on the CPU); std::invalid_argument.
at::ScalarType torch_dtype(protocol::Dtype dtype);

// The model for config.model / config.moe, parameters in train.dtype, initialised from the
// current torch seed (the trainer seeds with config.seed first).
std::shared_ptr<ModelImpl> make_model(const protocol::RunConfig& config);

}  // namespace moe::model
