#include "replay/replay_layer.h"

#include "io/safetensors.h"
#include "protocol/config_validation.h"
#include "train/config_input.h"

namespace moe::replay {

namespace {

// The config by the protocol's rules, except that its data files need not exist here: replay
// reads none.
protocol::RunConfig load_config(const std::string& path) {
  std::string message;
  try {
    protocol::RunConfig config;
    const auto problems = protocol::check(protocol::read_config_json_file(path), &config,
                                          protocol::ValidateOptions{false});
    if (problems.empty()) return config;
    message = train::problems_message(path, problems);
  } catch (const protocol::ConfigError& e) {
    message = e.what();
  }
  throw train::InputError(message);
}

at::ScalarType replay_dtype(const io::TensorMap& in, const std::string& file) {
  auto it = in.find("input");
  if (it == in.end()) throw train::InputError(file + ": no tensor named 'input'");
  auto dtype = it->second.scalar_type();
  if (dtype != at::kFloat && dtype != at::kDouble && dtype != at::kBFloat16) {
    throw train::InputError(file + ": tensor 'input' must be F32, F64 or BF16, got " +
                            std::string(c10::toString(dtype)));
  }
  return dtype;
}

// Copies every parameter of the layer from `in` (names with `prefix`); each must be present with
// the exact shape.
void load_weights(layer::MoeLayer& layer, const io::TensorMap& in, const std::string& file,
                  const std::string& prefix) {
  torch::NoGradGuard no_grad;
  std::string problems;
  for (auto& item : layer->named_parameters()) {
    const std::string name = prefix + item.key();
    auto it = in.find(name);
    if (it == in.end()) {
      problems += file + ": missing tensor '" + name + "' of shape " +
                  shape_text(item.value().sizes()) + "\n";
    } else if (it->second.sizes() != item.value().sizes()) {
      problems += file + ": tensor '" + name + "' has shape " + shape_text(it->second.sizes()) +
                  ", the config needs " + shape_text(item.value().sizes()) + "\n";
    } else if (!at::isFloatingType(it->second.scalar_type())) {
      problems += file + ": tensor '" + name + "' must be floating point\n";
    } else {
      item.value().copy_(it->second);
    }
  }
  if (!problems.empty()) throw train::InputError(problems.substr(0, problems.size() - 1));
  const auto bias = in.find(prefix + "selection_bias");
  if (layer->config().bias_balancing.enabled && bias != in.end()) {
    if (bias->second.dim() != 1 || bias->second.size(0) != layer->config().experts) {
      throw train::InputError(file + ": tensor '" + bias->first + "' has shape " +
                              shape_text(bias->second.sizes()) + ", expected [" +
                              std::to_string(layer->config().experts) + "]");
    }
    layer->set_selection_bias(bias->second);
  }
}

}  // namespace

std::string shape_text(at::IntArrayRef shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

ReplayLayer load_replay_layer(const std::string& config_file, const std::string& tensors_file,
                              const std::string& prefix) {
  ReplayLayer r;
  r.config = load_config(config_file);
  auto in = io::read_safetensors(tensors_file);
  const auto dtype = replay_dtype(in, tensors_file);
  r.input = in.at("input");
  const int64_t M = r.config.model.dim;
  if (r.input.dim() < 2 || r.input.size(-1) != M) {
    throw train::InputError(tensors_file + ": tensor 'input' has shape " +
                            shape_text(r.input.sizes()) + ", expected [..., " + std::to_string(M) +
                            "] (model.dim)");
  }
  if (auto it = in.find("grad_output"); it != in.end()) {
    if (it->second.sizes() != r.input.sizes()) {
      throw train::InputError(tensors_file + ": tensor 'grad_output' has shape " +
                              shape_text(it->second.sizes()) + ", expected the shape of 'input' " +
                              shape_text(r.input.sizes()));
    }
    r.grad_output = it->second.to(dtype);
  }
  auto moe_config = r.config.moe;
  moe_config.gate_noise = 0.0;  // replay is training mode without noise
  r.layer = layer::MoeLayer(M, moe_config);
  r.layer->to(dtype);
  load_weights(r.layer, in, tensors_file, prefix);
  r.layer->train();
  return r;
}

}  // namespace moe::replay
