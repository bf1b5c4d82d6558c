#pragma once
// The optimizers of train.optimizer: SGD with momentum and AdamW, written here (not torch::optim)
// so that their state saves to safetensors by parameter name and a resumed run continues
// bit-for-bit. Parameters in bfloat16/float16 get a float32 master copy: updates of lr * 1e-3 would
// otherwise vanish in bfloat16 rounding.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "io/safetensors.h"
#include "protocol/run_config.h"

namespace moe::train {

struct NamedParameter {
  std::string name;
  at::Tensor param;
};

class Optimizer {
 public:
  explicit Optimizer(std::vector<NamedParameter> params);
  virtual ~Optimizer() = default;

  // One update with learning rate `lr` from the gradients now in the parameters.
  void step(double lr);
  void zero_grad();

  // State by name ("<param>.exp_avg", "<param>.master", "step"...) and back; load_state checks
  // that every expected tensor is there with the right shape.
  io::TensorMap state() const;
  void load_state(const io::TensorMap& state);

  int64_t steps_taken() const { return steps_; }

 protected:
  struct Slot {
    std::string name;
    at::Tensor param;
    at::Tensor master;      // float32 copy for reduced-precision params, else undefined
    io::TensorMap buffers;  // per-optimizer state, float32 or the param's dtype
  };
  // Updates `weights` (the master copy or the param itself) from `grad` of the same dtype.
  virtual void update(Slot& slot, at::Tensor& weights, const at::Tensor& grad, double lr) = 0;
  at::Tensor& buffer(Slot& slot, const std::string& key, const at::Tensor& like);
  int64_t steps_ = 0;

 private:
  std::vector<Slot> slots_;
};

// SGD or AdamW per config.train (lr comes per step from the schedule). Weight decay applies to
// matrices and expert weight stacks (dim >= 2) only, not to biases, norms or scalars.
std::unique_ptr<Optimizer> make_optimizer(const protocol::TrainConfig& config,
                                          std::vector<NamedParameter> params);

}  // namespace moe::train
