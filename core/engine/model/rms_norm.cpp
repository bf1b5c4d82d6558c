#include "model/rms_norm.h"

namespace moe::model {

RmsNormImpl::RmsNormImpl(int64_t dim, double eps) : eps_(eps) {
  weight_ = register_parameter("weight", torch::ones({dim}));
}

at::Tensor RmsNormImpl::forward(const at::Tensor& x) {
  const auto dtype = x.scalar_type();
  const auto compute = dtype == at::kDouble ? at::kDouble : at::kFloat;
  const auto h = x.to(compute);
  const auto normed = h * at::rsqrt(h.pow(2).mean(-1, /*keepdim=*/true) + eps_);
  return weight_ * normed.to(dtype);
}

}  // namespace moe::model
