#include "model/model.h"

#include <stdexcept>

#include "model/decoder_model.h"
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

at::ScalarType torch_dtype(protocol::Dtype dtype) {
  switch (dtype) {
    case protocol::Dtype::Float64:
      return at::kDouble;
    case protocol::Dtype::BFloat16:
      return at::kBFloat16;
    case protocol::Dtype::Float32:
    case protocol::Dtype::Float16:  // no float16 kernels on CPU
      return at::kFloat;
  }
  throw std::invalid_argument("unknown train.dtype");
}

std::shared_ptr<ModelImpl> make_model(const protocol::RunConfig& config) {
  std::shared_ptr<ModelImpl> model;
  switch (config.model.kind) {
    case protocol::ModelKind::HelloWorld:
      model = std::make_shared<HelloworldModelImpl>(config.model.dim, config.moe);
      break;
    case protocol::ModelKind::Lm:
      model = std::make_shared<LmModelImpl>(config.model, config.moe);
      break;
    case protocol::ModelKind::Decoder:
      model = std::make_shared<DecoderModelImpl>(config);
      break;
    case protocol::ModelKind::Image:
      model = std::make_shared<ImageModelImpl>(config.model, config.moe,
                                               image_shape_for(config.data.kind));
      break;
  }
  if (!model) throw std::invalid_argument("unknown model.kind");
  model->to(torch_dtype(config.train.dtype));
  return model;
}

}  // namespace moe::model
