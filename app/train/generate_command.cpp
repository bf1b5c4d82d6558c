// moe-train generate --model DIR_OR_RUN (--prompt TEXT | --prompts FILE.jsonl | --prompt-tokens
// FILE.json) [--greedy | sampling options] [--max-new-tokens N] [--stop TEXT] [--json OUT]
// (docs/INFERENCE.md): text generation with a KV cache, the continuation streamed to stdout.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "generation_output.h"
#include "infer/generator.h"
#include "model/decoder_model.h"
#include "model_input.h"
#include "token_input.h"
#include "tokenize/tokenizer.h"
#include "tokenize/tokenizer_error.h"
#include "train/input_error.h"

namespace moe::train {

namespace {

namespace fs = std::filesystem;

struct GenerateOptions {
  std::string model_path, prompts_file, tokens_file, json_out, telemetry, dtype;
  std::vector<std::string> prompts, stops, overrides;
  std::vector<int64_t> stop_tokens;
  bool ignore_eos = false;
  infer::GenerationOptions generation;
};

// --prompts FILE.jsonl: one prompt a line, a JSON string or an object with "prompt" (or "text").
std::vector<std::string> read_prompt_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot be read");
  std::vector<std::string> prompts;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(where + ": not valid JSON: " + e.what());
    }
    if (j.is_string()) {
      prompts.push_back(j.get<std::string>());
    } else if (j.is_object() && (j.contains("prompt") || j.contains("text"))) {
      const auto& v = j.contains("prompt") ? j["prompt"] : j["text"];
      if (!v.is_string()) throw InputError(where + ": \"prompt\" must be a string");
      prompts.push_back(v.get<std::string>());
    } else {
      throw InputError(where + ": expected a JSON string or an object with \"prompt\"");
    }
  }
  if (prompts.empty()) throw InputError(path + ": has no prompts");
  return prompts;
}

// The ids generation stops after by default: a Hugging Face folder's eos_token_id (its
// generation_config.json's, else config.json's; a number or a list), a run's data.eos_token.
// A run keeps the files of the folder it started from beside its config (tokenizer_dir).
std::vector<int64_t> default_stop_tokens(const ModelInput& input, const std::string& model_path) {
  const auto folder = input.tokenizer_dir.empty() ? model_path : input.tokenizer_dir;
  for (const char* name : {"generation_config.json", "config.json"}) {
    const auto file = fs::path(folder) / name;
    if (!fs::exists(file)) continue;
    std::ifstream in(file);
    const auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("eos_token_id")) continue;
    const auto& eos = j["eos_token_id"];
    std::vector<int64_t> ids;
    if (eos.is_number_integer()) ids.push_back(eos.get<int64_t>());
    for (const auto& e : eos.is_array() ? eos : nlohmann::json::array()) {
      if (e.is_number_integer()) ids.push_back(e.get<int64_t>());
    }
    return ids;
  }
  if (input.config.data.eos_token >= 0) return {input.config.data.eos_token};
  return {};
}

int run_generate(GenerateOptions options) {
  ModelInput input = with_overrides(read_model_input(options.model_path), options.overrides);
  input.config.moe.capacity_factor = 0.0;  // dropless: generation never drops a token
  require_decoder(input, "generate");
  const auto tokenizer = read_tokenizer(input);
  std::vector<std::vector<int64_t>> prompts;
  if (!options.tokens_file.empty()) {
    prompts = read_token_rows(options.tokens_file, input.config.model.vocab);
  } else {
    auto texts = options.prompts;
    if (!options.prompts_file.empty()) texts = read_prompt_lines(options.prompts_file);
    if (texts.empty()) throw InputError("give --prompt, --prompts or --prompt-tokens");
    if (!tokenizer) {
      throw InputError(input.what +
                       ": has no tokenizer.json for text prompts (give --prompt-tokens)");
    }
    for (const auto& text : texts) {
      const auto ids = tokenizer->encode(text);
      if (ids.empty()) throw InputError("--prompt \"" + text + "\": encodes to no tokens");
      prompts.emplace_back(ids.begin(), ids.end());
    }
  }
  auto& generation = options.generation;
  if (!options.ignore_eos) generation.stop_tokens = default_stop_tokens(input, options.model_path);
  generation.stop_tokens.insert(generation.stop_tokens.end(), options.stop_tokens.begin(),
                                options.stop_tokens.end());

  auto built = build_model(input, compute_dtype(input, options.dtype));
  built->eval();
  auto& decoder = dynamic_cast<model::DecoderModelImpl&>(*built);

  std::ofstream telemetry_file;
  GenerationOutputOptions out_options;
  out_options.model = options.model_path;
  out_options.tokenizer = tokenizer ? &*tokenizer : nullptr;
  out_options.stops = options.stops;
  out_options.stream_text = generation.batch_size == 1;
  if (options.telemetry == "-") {  // the events take stdout
    out_options.telemetry = &std::cout;
    out_options.print_text = false;
  } else if (!options.telemetry.empty()) {
    telemetry_file.open(options.telemetry);
    if (!telemetry_file)
      throw InputError("--telemetry: '" + options.telemetry + "' cannot be written");
    out_options.telemetry = &telemetry_file;
  }
  generation.record_routing = out_options.telemetry != nullptr;
  GenerationOutput output(out_options, prompts, generation, moe_layers_json(decoder));
  infer::Sampler sampler(generation.sampling);
  const auto run = infer::generate(decoder, prompts, generation, sampler, &output);
  output.finish(run);

  nlohmann::json tokens_out = nlohmann::json::array(), texts_out = nlohmann::json::array(),
                 finish_out = nlohmann::json::array();
  for (size_t i = 0; i < prompts.size(); ++i) {
    const auto& result = run.generations[i];
    auto all = prompts[i];
    all.insert(all.end(), result.tokens.begin(), result.tokens.end());
    tokens_out.push_back(all);
    texts_out.push_back(output.text(i));
    finish_out.push_back(output.finish_reason(i, result));
  }
  const double decode_rate = run.decode_tokens_per_s();
  const double prefill_rate = run.prefill_tokens_per_s();
  const double ttft_mean = run.mean_ttft_ms();
  std::cerr << "generate: " << input.what << ", " << prompts.size() << " prompt(s), batch "
            << generation.batch_size << ": prefill " << static_cast<int64_t>(prefill_rate)
            << " tokens/s, decode " << static_cast<int64_t>(decode_rate)
            << " tokens/s, time to first token " << static_cast<int64_t>(ttft_mean) << " ms\n";
  if (!options.json_out.empty()) {
    nlohmann::json out = {{"tokens", tokens_out},
                          {"text", texts_out},
                          {"finish", finish_out},
                          {"decode_tokens_per_s", decode_rate},
                          {"prefill_tokens_per_s", prefill_rate},
                          {"ttft_ms", ttft_mean}};
    std::ofstream file(options.json_out);
    if (!(file << out.dump(1) << "\n")) throw InputError(options.json_out + ": cannot be written");
  }
  return kExitOk;
}

}  // namespace

Command add_generate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("generate", "Generate text with a decoder (KV cache, sampling)");
  auto options = std::make_shared<GenerateOptions>();
  auto& o = *options;
  auto& s = o.generation.sampling;
  cmd->add_option("--model", o.model_path,
                  "Hugging Face model folder, run directory or checkpoint step directory")
      ->required();
  auto* prompt = cmd->add_option("--prompt", o.prompts, "a prompt's text (repeatable)");
  auto* prompts = cmd->add_option("--prompts", o.prompts_file,
                                  "JSON Lines of prompts (a string or {\"prompt\": ...} a line)");
  auto* tokens = cmd->add_option("--prompt-tokens", o.tokens_file,
                                 "JSON array of prompts as arrays of token ids");
  prompt->excludes(prompts)->excludes(tokens);
  prompts->excludes(tokens);
  cmd->add_option("--max-new-tokens", o.generation.max_new_tokens, "tokens to generate at most")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--batch-size", o.generation.batch_size,
                  "sequences decoded together (a finished one's slot takes the next prompt)")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_flag("--greedy", s.greedy, "always the likeliest token (no sampling)");
  cmd->add_option("--temperature", s.temperature, "divides the logits before sampling")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--top-k", s.top_k, "sample from the k likeliest tokens (0: all)")
      ->check(non_negative_number());
  cmd->add_option("--top-p", s.top_p, "sample from the likeliest tokens up to probability p")
      ->check(CLI::Range(0.0, 1.0).description("in (0, 1]"))
      ->capture_default_str();
  cmd->add_option("--min-p", s.min_p, "drop tokens below min-p times the likeliest's probability")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--seed", s.seed, "the sampler's seed")->capture_default_str();
  cmd->add_option("--stop", o.stops, "stop once the text holds this string (repeatable)");
  cmd->add_option("--stop-token", o.stop_tokens, "stop after this token id (repeatable)");
  cmd->add_flag("--ignore-eos", o.ignore_eos,
                "do not stop at the model's end-of-sequence token(s)");
  cmd->add_option("--json", o.json_out,
                  "write tokens, text, finish reasons and speeds to this JSON file");
  cmd->add_option("--telemetry", o.telemetry,
                  "write JSON Lines events (tokens with their experts, step speeds) to this file; "
                  "- for stdout (then no plain text)");
  cmd->add_option("--dtype", o.dtype,
                  "compute in float32, float64 or bfloat16 (default: the model's own)");
  cmd->add_option("--set", o.overrides, "Override a key of the model's config: key.path=value")
      ->type_name("KEY=VALUE");
  return [options]() { return run_generate(*options); };
}

}  // namespace moe::train
