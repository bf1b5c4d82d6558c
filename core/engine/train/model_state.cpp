#include "train/model_state.h"

#include <set>
#include <stdexcept>

namespace moe::train {

namespace {

constexpr const char* kBiasName = "selection_bias";

void copy_checked(const std::string& name, at::Tensor& target, const at::Tensor& value) {
  if (!value.sizes().equals(target.sizes())) {
    throw std::invalid_argument("\"" + name + "\": shape " + c10::str(value.sizes()) +
                                ", the model expects " + c10::str(target.sizes()));
  }
  target.copy_(value.to(target.scalar_type()));
}

}  // namespace

std::vector<std::pair<std::string, layer::MoeLayerImpl*>> moe_layers_by_prefix(
    torch::nn::Module& model) {
  std::vector<std::pair<std::string, layer::MoeLayerImpl*>> layers;
  for (const auto& item : model.named_modules("", /*include_self=*/true)) {
    if (auto* layer = dynamic_cast<layer::MoeLayerImpl*>(item.value().get())) {
      layers.emplace_back(item.key().empty() ? "" : item.key() + ".", layer);
    }
  }
  return layers;
}

io::TensorMap model_tensors(torch::nn::Module& model) {
  io::TensorMap out;
  for (const auto& p : model.named_parameters()) out[p.key()] = p.value().detach();
  for (const auto& b : model.named_buffers()) out[b.key()] = b.value().detach();
  for (const auto& [prefix, layer] : moe_layers_by_prefix(model)) {
    if (layer->config().bias_balancing.enabled) {
      out[prefix + kBiasName] = layer->selection_bias();
    }
  }
  return out;
}

void load_model_tensors(torch::nn::Module& model, const io::TensorMap& tensors) {
  at::NoGradGuard no_grad;
  std::set<std::string> expected;
  auto take = [&](const std::string& name) -> const at::Tensor& {
    auto it = tensors.find(name);
    if (it == tensors.end()) throw std::invalid_argument("\"" + name + "\" is missing");
    expected.insert(name);
    return it->second;
  };
  for (auto& p : model.named_parameters()) copy_checked(p.key(), p.value(), take(p.key()));
  for (auto& b : model.named_buffers()) copy_checked(b.key(), b.value(), take(b.key()));
  for (const auto& [prefix, layer] : moe_layers_by_prefix(model)) {
    if (!layer->config().bias_balancing.enabled) continue;
    const at::Tensor& bias = take(prefix + kBiasName);
    at::Tensor current = layer->selection_bias().clone();
    copy_checked(prefix + kBiasName, current, bias);
    layer->set_selection_bias(current);
  }
  for (const auto& [name, t] : tensors) {
    if (expected.count(name) == 0) {
      throw std::invalid_argument("\"" + name + "\" is not a tensor of this model");
    }
  }
}

}  // namespace moe::train
