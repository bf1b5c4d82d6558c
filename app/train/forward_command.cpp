// moe-train forward --model DIR_OR_RUN --tokens FILE.json --out OUT.safetensors (docs/MODELS.md):
// one forward pass without training, writing the logits and every MoE layer's router logits, so
// that engines can be compared tensor by tensor.
#include <fstream>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "io/safetensors.h"
#include "model/decoder_model.h"
#include "model/lm_model.h"
#include "model_input.h"
#include "train/input_error.h"

namespace moe::train {

namespace {

// FILE.json: a JSON array of equal-length arrays of token ids below `vocab` -> int64 [B, T].
at::Tensor read_token_file(const std::string& path, int64_t vocab) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot be read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_array() || j.empty() || !j[0].is_array() || j[0].empty()) {
    throw InputError(path + ": expected a non-empty JSON array of non-empty arrays of token ids");
  }
  const int64_t b = static_cast<int64_t>(j.size()), t = static_cast<int64_t>(j[0].size());
  auto tokens = at::empty({b, t}, at::kLong);
  auto acc = tokens.accessor<int64_t, 2>();
  for (int64_t i = 0; i < b; ++i) {
    const auto& row = j[static_cast<size_t>(i)];
    if (!row.is_array() || static_cast<int64_t>(row.size()) != t) {
      throw InputError(path + ": row " + std::to_string(i) + " must be an array of " +
                       std::to_string(t) + " ids (rows are of equal length)");
    }
    for (int64_t k = 0; k < t; ++k) {
      const auto& v = row[static_cast<size_t>(k)];
      if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= vocab) {
        throw InputError(path + ": row " + std::to_string(i) + ", position " + std::to_string(k) +
                         ": " + v.dump() + " is not a token id below the vocabulary size " +
                         std::to_string(vocab));
      }
      acc[i][k] = v.get<int64_t>();
    }
  }
  return tokens;
}

at::ScalarType dtype_named(const std::string& name) {
  if (name == "float32") return at::kFloat;
  if (name == "float64") return at::kDouble;
  if (name == "bfloat16") return at::kBFloat16;
  throw InputError("--dtype: \"" + name + "\" is not one of float32, float64, bfloat16");
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
  return [=]() {
    const ModelInput input = read_model_input(*model_path);
    const auto scalar =
        dtype->empty() ? model::torch_dtype(input.config.train.dtype) : dtype_named(*dtype);
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
