// moe-train replay: one MoE layer applied to tensors from a safetensors file (docs/PROTOCOL.md,
// "moe-train commands"), so results can be compared with Tutel or any other implementation on
// identical inputs; with --serve, a process that answers routing what-ifs on the same tensors
// (replay_serve.h).
#include <iostream>

#include "commands.h"
#include "io/safetensors.h"
#include "replay/replay_layer.h"
#include "replay/replay_serve.h"
#include "train/input_error.h"

namespace moe::train {

namespace {

struct ReplayArgs {
  std::string config, tensors_in, tensors_out, prefix;
  bool serve = false;
};

int run_replay(const ReplayArgs& args) {
  if (args.serve)
    return replay::serve_replay(args.config, args.tensors_in, args.prefix, std::cin, std::cout);
  if (args.tensors_out.empty()) throw InputError("replay: --out is required without --serve");
  replay::ReplayLayer r = replay::load_replay_layer(args.config, args.tensors_in, args.prefix);
  const auto dtype = r.input.scalar_type();
  auto x = r.input.clone().set_requires_grad(r.grad_output.defined());
  auto result = r.layer->forward(x);
  io::TensorMap out;
  out["output"] = result.output.detach();
  out["l_aux"] = result.l_aux.detach().to(dtype);
  out["expert_counts"] = result.stats.demand.cpu();
  out["expert_kept"] = result.stats.kept.cpu();
  out["capacity"] = torch::tensor(result.stats.capacity, at::kLong);
  if (r.grad_output.defined()) {
    (result.output * r.grad_output).sum().backward();
    out["grad.input"] = x.grad();
    for (auto& item : r.layer->named_parameters()) {
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
  auto* out = cmd->add_option("--out", args->tensors_out, "output safetensors file");
  cmd->add_option("--prefix", args->prefix,
                  "prefix of the weights' names in --tensors (e.g. blocks.3.moe.)");
  cmd->add_flag("--serve", args->serve,
                "answer routing requests, one JSON line each on stdin, until end of input")
      ->excludes(out);
  return [args]() { return run_replay(*args); };
}

}  // namespace moe::train
