// ExpertsImpl (experts.h): what every kind of experts shares.
#include "layer/experts.h"

#include <stdexcept>

#include "layer/ffn_experts.h"
#include "layer/glu_experts.h"

namespace moe::layer {

void ExpertsImpl::add_weight(size_t slot, const std::string& name, const at::Tensor& value,
                             WeightRole role) {
  TORCH_CHECK(slot < kMaxWeights, "an experts kind has at most ", kMaxWeights, " weights");
  if (weights_.size() <= slot) {
    weights_.resize(slot + 1);
    roles_.resize(slot + 1, WeightRole::hidden_units);
  }
  weights_[slot] = value.defined() ? register_parameter(name, value) : at::Tensor();
  roles_[slot] = role;
}

void ExpertsImpl::keep_part(const ExpertPartition& partition) {
  at::NoGradGuard no_grad;
  for (size_t i = 0; i < weights_.size(); ++i) {
    at::Tensor& t = weights_[i];
    if (t.defined()) t.set_data(partition.part_of(t, roles_[i] == WeightRole::output_bias).clone());
  }
}

std::vector<at::Tensor> ExpertsImpl::weights() const {
  std::vector<at::Tensor> w = weights_;
  if (!compute_dtype_) return w;
  for (auto& t : w) {
    if (t.defined()) t = t.to(*compute_dtype_);
  }
  return w;
}

Experts make_experts(int64_t model_dim, const protocol::MoeConfig& config) {
  std::shared_ptr<ExpertsImpl> experts;
  switch (config.expert_ffn) {
    case protocol::ExpertFfn::Glu:
      experts = std::make_shared<GluExpertsImpl>(
          config.experts, model_dim, config.hidden,
          GluCombine{config.activation, config.swiglu_limit, config.swiglu_alpha}, config.fc1_bias,
          config.fc2_bias);
      break;
    case protocol::ExpertFfn::Mlp:
      experts =
          std::make_shared<FfnExpertsImpl>(config.experts, model_dim, config.hidden,
                                           config.activation, config.fc1_bias, config.fc2_bias);
      break;
  }
  if (!experts) throw std::invalid_argument("unknown moe.expert_ffn");
  return Experts(std::move(experts));
}

}  // namespace moe::layer
