#include "generation_output.h"

#include <algorithm>
#include <iostream>

namespace moe::train {

namespace {

std::vector<uint32_t> to_ids32(const std::vector<int64_t>& ids) {
  return std::vector<uint32_t>(ids.begin(), ids.end());
}

// generate's own phase names for the engine's: the router is the gate.
std::string phase_name(const std::string& engine) {
  return engine == "gate" ? "router" : engine;
}

}  // namespace

std::string TextStream::add(int64_t token, bool* stopped) {
  *stopped = false;
  ids_.push_back(token);
  if (!tokenizer_) return "";
  const size_t before = text_.size();
  text_ = tokenizer_->decode(to_ids32(ids_));
  // The reference's rule (transformers' StopStringCriteria): a stop string that ends in the new
  // token's text, wherever it starts; the text ends after the earliest such end.
  size_t end = std::string::npos;
  for (const auto& stop : stops_) {
    if (stop.empty()) continue;
    const size_t from = before >= stop.size() ? before - stop.size() + 1 : 0;
    const auto at = text_.find(stop, from);
    if (at != std::string::npos) end = std::min(end, at + stop.size());
  }
  if (end != std::string::npos) {
    text_.resize(end);
    *stopped = true;
  }
  static const std::string kReplacement = "\xEF\xBF\xBD";
  const bool partial = text_.size() >= 3 && text_.compare(text_.size() - 3, 3, kReplacement) == 0;
  if ((partial && !*stopped) || text_.size() <= given_ ||
      text_.compare(0, given_, text_, 0, given_) != 0) {
    return "";
  }
  auto piece = text_.substr(given_);
  given_ = text_.size();
  return piece;
}

nlohmann::json moe_layers_json(model::DecoderModelImpl& decoder) {
  auto layers = nlohmann::json::array();
  for (const auto& [index, moe] : decoder.moe_blocks()) {
    layers.push_back(
        {{"layer", index}, {"experts", moe->config().experts}, {"top_k", moe->config().top_k}});
  }
  return layers;
}

GenerationOutput::GenerationOutput(GenerationOutputOptions options,
                                   const std::vector<std::vector<int64_t>>& prompts,
                                   const infer::GenerationOptions& generation,
                                   nlohmann::json moe_layers)
    : options_(std::move(options)),
      prompts_(prompts),
      stopped_by_string_(prompts.size(), false),
      start_(std::chrono::steady_clock::now()) {
  for (size_t i = 0; i < prompts.size(); ++i)
    streams_.emplace_back(options_.tokenizer, options_.stops);
  emit({{"type", "generate_start"},
        {"model", options_.model},
        {"prompts", prompts.size()},
        {"batch_size", generation.batch_size},
        {"max_new_tokens", generation.max_new_tokens},
        {"moe_layers", std::move(moe_layers)}});
}

double GenerationOutput::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void GenerationOutput::emit(nlohmann::json event) {
  if (!options_.telemetry) return;
  nlohmann::json line = {{"v", 1}, {"type", event["type"]}, {"t", seconds()}};
  line.update(event);
  *options_.telemetry << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                      << "\n";
  options_.telemetry->flush();
}

void GenerationOutput::on_prompt_start(size_t prompt) {
  if (!options_.telemetry) return;
  auto pieces = nlohmann::json::array();
  if (options_.tokenizer) {
    for (int64_t id : prompts_[prompt]) {
      pieces.push_back(options_.tokenizer->decode({static_cast<uint32_t>(id)}, false));
    }
  }
  emit({{"type", "prompt"}, {"prompt", prompt}, {"tokens", prompts_[prompt]}, {"pieces", pieces}});
}

bool GenerationOutput::on_token(const infer::GeneratedToken& token) {
  bool stopped = false;
  const auto piece = streams_[token.prompt].add(token.id, &stopped);
  if (stopped) stopped_by_string_[token.prompt] = true;
  if (options_.print_text && options_.stream_text && options_.tokenizer)
    std::cout << piece << std::flush;
  if (options_.telemetry) {
    auto routing = nlohmann::json::array();
    for (const auto& c : token.routing) {
      routing.push_back({{"layer", c.layer}, {"experts", c.experts}, {"weights", c.weights}});
    }
    emit({{"type", "token"},
          {"prompt", token.prompt},
          {"index", token.index},
          {"id", token.id},
          {"piece", piece},
          {"routing", routing}});
  }
  return !stopped;
}

void GenerationOutput::on_step(const infer::DecodeStep& step) {
  if (!options_.telemetry) return;
  nlohmann::json phases = nlohmann::json::object();
  double accounted = 0;
  for (const auto& [name, ms] : step.phase_ms) {
    phases[phase_name(name)] = ms;
    accounted += ms;
  }
  const double ms = step.seconds * 1e3;
  phases["other"] = std::max(0.0, ms - accounted);
  emit({{"type", "decode_step"},
        {"step", step.step},
        {"batch", step.batch},
        {"ms", ms},
        {"tokens_per_s", step.seconds > 0 ? static_cast<double>(step.batch) / step.seconds : 0.0},
        {"phases", phases}});
}

std::string GenerationOutput::finish_reason(size_t prompt,
                                            const infer::Generation& generation) const {
  return stopped_by_string_[prompt] ? "stop_string" : generation.finish;
}

void GenerationOutput::on_prompt_end(size_t prompt, const infer::Generation& generation) {
  if (options_.print_text && options_.stream_text) {
    if (options_.tokenizer) {
      std::cout << "\n" << std::flush;  // the text streamed already
    } else {
      print_sequence(prompt, generation);
    }
  }
  emit({{"type", "prompt_end"},
        {"prompt", prompt},
        {"finish", finish_reason(prompt, generation)},
        {"tokens", generation.tokens.size()},
        {"text", streams_[prompt].text()},
        {"ttft_ms", generation.prefill_seconds * 1e3},
        {"prefill_ms", generation.prefill_seconds * 1e3}});
}

void GenerationOutput::print_sequence(size_t prompt, const infer::Generation& generation) const {
  if (options_.tokenizer) {
    std::cout << streams_[prompt].text() << "\n";
  } else {
    std::cout << nlohmann::json(generation.tokens).dump() << "\n";
  }
  std::cout << std::flush;
}

void GenerationOutput::finish(const infer::GenerationRun& run) {
  if (options_.print_text && !options_.stream_text) {  // in the prompts' order
    for (size_t i = 0; i < run.generations.size(); ++i) print_sequence(i, run.generations[i]);
  }
  int64_t tokens = 0;
  for (const auto& g : run.generations) tokens += static_cast<int64_t>(g.tokens.size());
  emit({{"type", "generate_end"},
        {"decode_tokens_per_s", run.decode_tokens_per_s()},
        {"prefill_tokens_per_s", run.prefill_tokens_per_s()},
        {"ttft_ms", run.mean_ttft_ms()},
        {"tokens", tokens}});
}

}  // namespace moe::train
