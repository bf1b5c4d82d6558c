// moe-train forward --model DIR_OR_RUN --tokens FILE.json --out OUT.safetensors (docs/MODELS.md):
// one forward pass without training, writing the logits and every MoE layer's router logits, so
// that engines can be compared tensor by tensor.
#include <iostream>
#include <map>

#include "commands.h"
#include "hf/hf_weights.h"
#include "io/safetensors.h"
#include "model/decoder_model.h"
#include "model/lm_model.h"
#include "model/moe_losses.h"
#include "model_input.h"
#include "token_input.h"
#include "train/input_error.h"

namespace moe::train {

namespace {

// Next-token loss as the reference's labels=input_ids computes it: logits at positions 0..T-2
// against tokens 1..T-1, plus the MoE layers' aux and z losses at the config's weights.
at::Tensor training_loss(model::ModelImpl& model, const at::Tensor& tokens,
                         const protocol::TrainConfig& train, at::Tensor& logits) {
  model::MoeLosses losses(model::loss_dtype(model.dtype()));
  if (auto* decoder = dynamic_cast<model::DecoderModelImpl*>(&model)) {
    logits = decoder->logits(tokens, &losses);
  } else if (auto* lm = dynamic_cast<model::LmModelImpl*>(&model)) {
    logits = lm->logits(tokens, &losses);
  } else {
    throw InputError("--backward: needs a token model (model.kind \"decoder\" or \"lm\")");
  }
  const int64_t t = tokens.size(1);
  if (t < 2) throw InputError("--backward: needs sequences of at least 2 tokens");
  model::ModelOutput out;
  std::move(losses).fill(out);
  const auto z = logits.narrow(1, 0, t - 1);
  auto loss = at::cross_entropy_loss(z.reshape({-1, z.size(-1)}).to(out.aux_loss.scalar_type()),
                                     tokens.narrow(1, 1, t - 1).reshape({-1}));
  return loss + train.aux_loss_weight * out.aux_loss + train.z_loss_weight * out.z_loss;
}

// --backward: the loss and every parameter's gradient, for a training-step comparison.
int forward_backward(const std::string& model_path, const std::string& tokens_path,
                     const std::string& out_path, const std::string& dtype,
                     const std::vector<std::string>& overrides) {
  const ModelInput input = with_overrides(read_model_input(model_path), overrides);
  const auto scalar = compute_dtype(input, dtype);
  auto model = build_model(input, scalar);
  model->eval();  // no noise; the layers' routing is the training one
  const auto tokens = read_token_file(tokens_path, input.config.model.vocab);
  at::Tensor logits;
  auto loss = training_loss(*model, tokens, input.config.train, logits);
  loss.backward();
  const auto out_dtype = scalar == at::kDouble ? at::kDouble : at::kFloat;
  io::TensorMap grads;
  for (const auto& p : model->named_parameters()) {
    if (p.value().grad().defined()) grads[p.key()] = p.value().grad().to(out_dtype);
  }
  const bool decoder = input.config.model.kind == protocol::ModelKind::Decoder;
  io::TensorMap out;
  for (auto& [name, g] : decoder ? hf::weights_to_hf(input.config, grads) : grads) {
    out["grad." + name] = g.contiguous();
  }
  out["loss"] = loss.detach().to(out_dtype).reshape({1});
  out["logits"] = logits.detach().to(out_dtype).contiguous();
  io::write_safetensors(out_path, out, {{"model", input.what}, {"dtype", c10::toString(scalar)}});
  std::cerr << "forward --backward: " << input.what << ", loss " << loss.item<double>() << " -> "
            << out_path << "\n";
  return kExitOk;
}

}  // namespace

Command add_forward_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "forward", "Run a model on token ids and write its logits and router logits (safetensors)");
  auto model_path = std::make_shared<std::string>();
  auto tokens_path = std::make_shared<std::string>();
  auto out_path = std::make_shared<std::string>();
  auto dtype = std::make_shared<std::string>();
  cmd->add_option("--model", *model_path,
                  "Hugging Face model folder, run directory or checkpoint step directory")
      ->required();
  cmd->add_option("--tokens", *tokens_path, "JSON array of equal-length arrays of token ids")
      ->required();
  cmd->add_option("--out", *out_path, "safetensors file to write")->required();
  cmd->add_option("--dtype", *dtype,
                  "compute in float32, float64 or bfloat16 (default: the model's own)");
  auto overrides = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--set", *overrides,
                  "Override a key of the model's config (routing keys): key.path=value")
      ->type_name("KEY=VALUE");
  auto backward = std::make_shared<bool>(false);
  cmd->add_flag("--backward", *backward,
                "also write the next-token loss (with the aux loss) as `loss` and every "
                "parameter's gradient as `grad.<name>` (a decoder's by its Hugging Face names)");
  return [=]() {
    if (*backward)
      return forward_backward(*model_path, *tokens_path, *out_path, *dtype, *overrides);
    const ModelInput input = with_overrides(read_model_input(*model_path), *overrides);
    const auto scalar = compute_dtype(input, *dtype);
    auto model = build_model(input, scalar);
    model->eval();
    const auto tokens = read_token_file(*tokens_path, input.config.model.vocab);
    io::TensorMap out;
    // float64 stays float64 (the parity tests' 1e-10); everything else is written as float32.
    const auto out_dtype = scalar == at::kDouble ? at::kDouble : at::kFloat;
    at::NoGradGuard no_grad;
    at::Tensor logits;
    if (auto* decoder = dynamic_cast<model::DecoderModelImpl*>(model.get())) {
      decoder->set_router_observer([&](int64_t layer, const at::Tensor& router) {
        out["router_logits." + std::to_string(layer)] = router.to(out_dtype).contiguous();
      });
      logits = decoder->logits(tokens);
      decoder->set_router_observer({});
    } else if (auto* lm = dynamic_cast<model::LmModelImpl*>(model.get())) {
      logits = lm->logits(tokens);
    } else {
      throw InputError(input.what +
                       ": forward runs token models (model.kind \"decoder\" or "
                       "\"lm\"), got \"" +
                       protocol::to_string(input.config.model.kind) + "\"");
    }
    out["logits"] = logits.to(out_dtype).contiguous();
    io::write_safetensors(*out_path, out,
                          {{"model", input.what}, {"dtype", c10::toString(scalar)}});
    std::cerr << "forward: " << input.what << ", tokens " << tokens.sizes() << " -> " << *out_path
              << "\n";
    return kExitOk;
  };
}

}  // namespace moe::train
