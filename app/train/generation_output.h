#pragma once
// What `moe-train generate` writes while it generates (docs/INFERENCE.md): the text on stdout, and
// with --telemetry JSON Lines events (generate_start, prompt, token, decode_step, prompt_end,
// generate_end) to a file or to stdout ("-", which then gets no plain text).
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "infer/generator.h"
#include "tokenize/tokenizer.h"

namespace moe::train {

// A generation's text as it streams: what the ids decode to so far, given out once a piece is
// whole (a byte-fallback character split over tokens decodes to U+FFFD until its last byte).
class TextStream {
 public:
  TextStream(const tokenize::Tokenizer* tokenizer, std::vector<std::string> stops)
      : tokenizer_(tokenizer), stops_(std::move(stops)) {}

  // Adds a token: the text it completes ("" while a character is partial); *stopped when the
  // text now holds a stop string (the text ends after it).
  std::string add(int64_t token, bool* stopped);
  const std::string& text() const { return text_; }

 private:
  const tokenize::Tokenizer* tokenizer_;
  std::vector<std::string> stops_;
  std::vector<int64_t> ids_;
  std::string text_;
  size_t given_ = 0;  // bytes of text_ given out
};

// generate_start's "moe_layers": {"layer", "experts", "top_k"} per MoE layer of the decoder.
nlohmann::json moe_layers_json(model::DecoderModelImpl& decoder);

struct GenerationOutputOptions {
  std::string model;  // as the user named it
  const tokenize::Tokenizer* tokenizer = nullptr;
  std::vector<std::string> stops;
  std::ostream* telemetry = nullptr;  // JSON Lines, or none
  bool print_text = true;             // the text (or ids without a tokenizer) on stdout
  bool stream_text = true;            // as it comes (one sequence at a time), else at each end
};

class GenerationOutput : public infer::GenerationListener {
 public:
  GenerationOutput(GenerationOutputOptions options,
                   const std::vector<std::vector<int64_t>>& prompts,
                   const infer::GenerationOptions& generation, nlohmann::json moe_layers);

  void on_prompt_start(size_t prompt) override;
  bool on_token(const infer::GeneratedToken& token) override;
  void on_step(const infer::DecodeStep& step) override;
  void on_prompt_end(size_t prompt, const infer::Generation& generation) override;
  // After the run: the closing event and the text of sequences not yet printed.
  void finish(const infer::GenerationRun& run);

  const std::string& text(size_t prompt) const { return streams_[prompt].text(); }
  // "stop_string" where a stop string ended the text, else the generator's reason.
  std::string finish_reason(size_t prompt, const infer::Generation& generation) const;

 private:
  void emit(nlohmann::json event);
  // A whole sequence on stdout: its text, or its ids without a tokenizer.
  void print_sequence(size_t prompt, const infer::Generation& generation) const;
  double seconds() const;

  GenerationOutputOptions options_;
  const std::vector<std::vector<int64_t>>& prompts_;
  std::vector<TextStream> streams_;
  std::vector<bool> stopped_by_string_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace moe::train
