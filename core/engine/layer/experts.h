#pragma once
// The experts of one MoE layer (docs/ROUTING.md, "Dispatch, experts, combine"): the dispatched
// buffer [E, C, M] -> [E, C, M], each expert on its own slots, as batched GEMMs. One class per
// kind of expert, made by make_experts(); FfnExpertsImpl (Tutel's two-layer FFN) is the first.
// A kind gives its weights as expert-major tensors and its computation for any weights of that
// layout, forward and backward by hand, so that the token dispatchers gather the weights (r = 0),
// cut them by hidden units (E < W) or run the experts piece by piece (the overlapped all-to-all)
// without knowing the kind.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "layer/expert_partition.h"
#include "protocol/run_config.h"

namespace moe::layer {

// The experts' activation is moe.activation's value itself.
using protocol::Activation;

// What a weight is to the dispatchers: [E, H, ...] with the expert's hidden units along axis 1
// (cut when experts are sharded), or an output bias [E, M] added once after the hidden units'
// partial sums.
enum class WeightRole { hidden_units, output_bias };

// What forward_saving keeps for backward: the kind's own tensors.
using ExpertsSaved = std::vector<at::Tensor>;

class ExpertsImpl : public torch::nn::Module {
 public:
  // A kind has at most this many weights (the overlapped all-to-all's autograd function takes each
  // as an argument of its own).
  static constexpr size_t kMaxWeights = 6;

  // dispatched [E, C, M] -> [E, C, M] with this module's weights (E: the experts it holds).
  at::Tensor forward(const at::Tensor& dispatched) { return forward_with(dispatched, weights()); }
  // The same over the rows in use only (expert_rows.h): rows [E] int64 on the host, expert e's
  // tokens in its first rows[e] slots. No GEMM runs on the other slots; their output is zero.
  at::Tensor forward_rows(const at::Tensor& dispatched, const at::Tensor& rows) {
    return forward_with(dispatched, weights(), rows);
  }
  // The same with other weights of the layout of weights(), with autograd (rows undefined: all).
  at::Tensor forward_with(const at::Tensor& dispatched, const std::vector<at::Tensor>& w) const {
    return forward_with(dispatched, w, at::Tensor());
  }
  virtual at::Tensor forward_with(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                                  const at::Tensor& rows) const = 0;
  // Forward and backward without autograd, for dispatchers that schedule the pieces themselves.
  virtual at::Tensor forward_saving(const at::Tensor& dispatched, const std::vector<at::Tensor>& w,
                                    ExpertsSaved& saved) const = 0;
  // {the input's gradient (when want_input), then one per weight (undefined where it is)}.
  virtual std::vector<at::Tensor> backward(const at::Tensor& grad_y, const ExpertsSaved& saved,
                                           const std::vector<at::Tensor>& w, bool want_input,
                                           bool want_weights) const = 0;

  // The weights in their order (undefined where a kind's optional one is absent), in the compute
  // dtype when one is set (a differentiable cast: gradients reach the parameters in their own).
  std::vector<at::Tensor> weights() const;
  const std::vector<WeightRole>& roles() const { return roles_; }
  // Expert parallelism: keep this rank's part only (the parameters shrink in place, so the
  // module's parameter list and names stay as they are).
  void keep_part(const ExpertPartition& partition);
  int64_t experts() const { return weights_.front().size(0); }
  // The dtype the expert GEMMs run in (undefined: the parameters' own); see ComputeDtypeScope.
  void set_compute_dtype(c10::optional<at::ScalarType> dtype) { compute_dtype_ = dtype; }

 protected:
  // Registers weight number `slot` of weights() (an undefined tensor for an absent optional one:
  // not a parameter then). Registration order is the parameters' order (optimizer, checkpoints).
  void add_weight(size_t slot, const std::string& name, const at::Tensor& value, WeightRole role);

 private:
  std::vector<at::Tensor> weights_;
  std::vector<WeightRole> roles_;
  c10::optional<at::ScalarType> compute_dtype_;
};
TORCH_MODULE(Experts);

// The experts moe config asks for, model_dim wide.
Experts make_experts(int64_t model_dim, const protocol::MoeConfig& config);

}  // namespace moe::layer
