#include "model/model.h"

#include <stdexcept>

#include "model/helloworld_model.h"
#include "model/image_model.h"
#include "model/lm_model.h"

namespace moe::model {

ParameterCounts ModelImpl::parameter_counts() {
  ParameterCounts counts;
  int64_t total = 0;
  for (const auto& p : parameters()) total += p.numel();
  for (auto layer : moe_layers()) {  // a copy: experts() is not const
    for (const auto& p : layer->experts().parameters()) counts.experts += p.numel();
  }
  counts.dense = total - counts.experts;
  return counts;
}

at::ScalarType ModelImpl::dtype() {
  for (const auto& p : parameters()) return p.scalar_type();
  return at::kFloat;
}

at::ScalarType loss_dtype(at::ScalarType dtype) {
  return dtype == at::kDouble ? at::kDouble : at::kFloat;
}

at::ScalarType parse_dtype(const std::string& name) {
  if (name == "float32" || name == "float16") return at::kFloat;  // no float16 kernels on CPU
  if (name == "float64") return at::kDouble;
  if (name == "bfloat16") return at::kBFloat16;
  throw std::invalid_argument("unknown train.dtype '" + name +
                              "' (expected float32, float64, bfloat16 or float16)");
}

std::shared_ptr<ModelImpl> make_model(const protocol::RunConfig& config) {
  const auto& kind = config.model.kind;
  std::shared_ptr<ModelImpl> model;
  if (kind == "helloworld") {
    model = std::make_shared<HelloworldModelImpl>(config.model.dim, config.moe);
  } else if (kind == "lm") {
    model = std::make_shared<LmModelImpl>(config.model, config.moe);
  } else if (kind == "image") {
    model = std::make_shared<ImageModelImpl>(config.model, config.moe,
                                             image_shape_for(config.data.kind));
  } else {
    throw std::invalid_argument("unknown model.kind '" + kind +
                                "' (expected helloworld, lm or image)");
  }
  model->to(parse_dtype(config.train.dtype));
  return model;
}

}  // namespace moe::model
