// The JSON Lines `moe-train generate --telemetry` writes (docs/INFERENCE.md), read into typed
// events. Every line is an object with "v": 1, "type" and "t" (seconds since generation started);
// unknown types and keys are ignored, and a line that is not such an object is reported as Bad
// (the caller counts and skips it), never thrown.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <vector>

namespace moe::ui {

struct GenerateMoeLayer {
  int layer = 0;  // the decoder block's index
  int experts = 0;
  int top_k = 0;
};

struct GenerateStartEvent {
  QString model;
  int prompts = 0;
  int batch_size = 1;
  int max_new_tokens = 0;
  std::vector<GenerateMoeLayer> moe_layers;
};

struct PromptEvent {
  int prompt = 0;
  std::vector<int64_t> tokens;
  QStringList pieces;  // the text of each prompt token; empty without a tokenizer
};

// One MoE layer's choice for a token: k experts, best first, with their weights.
struct TokenRouting {
  int layer = 0;
  std::vector<int> experts;
  std::vector<double> weights;
};

struct TokenEvent {
  int prompt = 0;
  int index = 0;  // among that prompt's generated tokens
  int64_t id = 0;
  QString piece;  // the text the token adds; "" when it only starts a multi-byte character
  std::vector<TokenRouting> routing;  // one per MoE layer
  double t = 0;
};

struct DecodeStepEvent {
  int step = 0;
  int batch = 0;
  double ms = 0;
  double tokens_per_s = 0;
  std::map<QString, double> phases_ms;  // attention, router, dispatch, experts, ...
  double t = 0;
};

struct PromptEndEvent {
  int prompt = 0;
  QString finish;  // stop_token | length | stop_string
  int tokens = 0;
  QString text;
  double ttft_ms = 0;
  double prefill_ms = 0;
};

struct GenerateEndEvent {
  double decode_tokens_per_s = 0;
  double prefill_tokens_per_s = 0;
  double ttft_ms = 0;
  int64_t tokens = 0;
};

// One line, parsed. Only the member its kind names is filled.
struct GenerateLine {
  enum class Kind { Start, Prompt, Token, DecodeStep, PromptEnd, End, Unknown, Bad };
  Kind kind = Kind::Bad;
  QString error;  // Bad: why
  GenerateStartEvent start;
  PromptEvent prompt;
  TokenEvent token;
  DecodeStepEvent step;
  PromptEndEvent prompt_end;
  GenerateEndEvent end;
};

GenerateLine parseGenerateLine(const QByteArray& line);

// Cuts a byte stream into lines as it arrives (a line may span several reads) and parses each
// whole one; blank lines are skipped.
class GenerateLineReader {
 public:
  std::vector<GenerateLine> feed(const QByteArray& bytes);
  // The last line when the stream ended without a newline.
  std::vector<GenerateLine> finish();

 private:
  QByteArray pending_;
};

}  // namespace moe::ui
