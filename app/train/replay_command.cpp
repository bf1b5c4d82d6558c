// moe-train replay: one MoE layer applied to tensors from a safetensors file (docs/PROTOCOL.md,
// "moe-train commands"), so results can be compared with Tutel or any other implementation on
// identical inputs.
#include <iostream>

#include "commands.h"
#include "config_input.h"
#include "io/safetensors.h"
#include "moe/moe_layer.h"

namespace moe::train {

namespace {

struct ReplayArgs {
  std::string config, tensors_in, tensors_out;
};

at::ScalarType replay_dtype(const io::TensorMap& in, const std::string& file) {
  auto it = in.find("input");
  if (it == in.end()) throw InputError(file + ": no tensor named 'input'");
  auto dtype = it->second.scalar_type();
  if (dtype != at::kFloat && dtype != at::kDouble && dtype != at::kBFloat16) {
    throw InputError(file + ": tensor 'input' must be F32, F64 or BF16, got " +
                     std::string(c10::toString(dtype)));
  }
  return dtype;
}

std::string shape_str(at::IntArrayRef s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// Copies every parameter of the layer from `in`; each must be present with the exact shape.
void load_weights(MoeLayer& layer, const io::TensorMap& in, const std::string& file) {
  torch::NoGradGuard no_grad;
  std::string problems;
  for (auto& item : layer->named_parameters()) {
    auto it = in.find(item.key());
    if (it == in.end()) {
      problems += file + ": missing tensor '" + item.key() + "' of shape " +
                  shape_str(item.value().sizes()) + "\n";
    } else if (it->second.sizes() != item.value().sizes()) {
      problems += file + ": tensor '" + item.key() + "' has shape " +
                  shape_str(it->second.sizes()) + ", the config needs " +
                  shape_str(item.value().sizes()) + "\n";
    } else if (!at::isFloatingType(it->second.scalar_type())) {
      problems += file + ": tensor '" + item.key() + "' must be floating point\n";
    } else {
      item.value().copy_(it->second);
    }
  }
  if (!problems.empty()) throw InputError(problems.substr(0, problems.size() - 1));
}

int run_replay(const ReplayArgs& args) {
  auto config = load_valid_config(args.config);
  auto in = io::read_safetensors(args.tensors_in);
  const auto dtype = replay_dtype(in, args.tensors_in);
  const auto input = in.at("input");
  const int64_t M = config.model.dim;
  if (input.dim() < 2 || input.size(-1) != M) {
    throw InputError(args.tensors_in + ": tensor 'input' has shape " + shape_str(input.sizes()) +
                     ", expected [..., " + std::to_string(M) + "] (model.dim)");
  }
  at::Tensor grad_output;
  if (auto it = in.find("grad_output"); it != in.end()) {
    grad_output = it->second;
    if (grad_output.sizes() != input.sizes()) {
      throw InputError(args.tensors_in + ": tensor 'grad_output' has shape " +
                       shape_str(grad_output.sizes()) + ", expected the shape of 'input' " +
                       shape_str(input.sizes()));
    }
    grad_output = grad_output.to(dtype);
  }

  auto moe_config = config.moe;
  moe_config.gate_noise = 0.0;  // replay is training mode without noise
  MoeLayer layer(M, moe_config);
  layer->to(dtype);
  load_weights(layer, in, args.tensors_in);
  layer->train();

  auto x = input.clone().set_requires_grad(grad_output.defined());
  auto result = layer->forward(x);
  io::TensorMap out;
  out["output"] = result.output.detach();
  out["l_aux"] = result.l_aux.detach().to(dtype);
  out["expert_counts"] = result.stats.demand.cpu();
  out["expert_kept"] = result.stats.kept.cpu();
  out["capacity"] = torch::tensor(result.stats.capacity, at::kLong);
  if (grad_output.defined()) {
    (result.output * grad_output).sum().backward();
    out["grad.input"] = x.grad();
    for (auto& item : layer->named_parameters()) {
      auto g = item.value().grad();
      out["grad." + item.key()] = g.defined() ? g : at::zeros_like(item.value());
    }
  }
  io::write_safetensors(args.tensors_out, out);
  std::cerr << "replay: wrote " << out.size() << " tensors to " << args.tensors_out << "\n";
  return kExitOk;
}

}  // namespace

Command add_replay_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("replay", "Apply one MoE layer to tensors from a safetensors file");
  auto args = std::make_shared<ReplayArgs>();
  cmd->add_option("--config", args->config, "RunConfig JSON (uses moe and model.dim)")->required();
  cmd->add_option("--tensors", args->tensors_in, "input safetensors: input, weights[, grad_output]")
      ->required();
  cmd->add_option("--out", args->tensors_out, "output safetensors file")->required();
  return [args]() { return run_replay(*args); };
}

}  // namespace moe::train
