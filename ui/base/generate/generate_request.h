// What the Generate tab asks `moe-train generate` for (docs/INFERENCE.md): the model, the prompts
// (text, or token ids for a model without a tokenizer) and the sampling settings, as the command
// line that streams telemetry to stdout (`--telemetry -`).
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace moe::ui {

struct SamplingSettings {
  bool greedy = false;
  double temperature = 1.0;
  int top_k = 0;  // 0: all tokens
  double top_p = 1.0;
  double min_p = 0.0;  // 0: off
  quint64 seed = 0;
  int max_new_tokens = 64;
  QString stop;        // empty: none
  int batch_size = 1;  // prompts decoded together; 1 leaves --batch-size out
};

struct GenerateRequest {
  QString model;        // a Hugging Face folder, a run directory or a checkpoint step directory
  QStringList prompts;  // text prompts, or
  std::vector<std::vector<int64_t>> prompt_tokens;  // prompts as token ids (no tokenizer)
  SamplingSettings sampling;

  bool usesTokenIds() const { return !prompt_tokens.empty(); }
  int promptCount() const;
  // The arguments after the program. With token ids, `prompt_tokens_file` is the
  // --prompt-tokens file the caller writes (promptTokensJson()).
  QStringList arguments(const QString& prompt_tokens_file = QString()) const;
  QByteArray promptTokensJson() const;  // [[ids], ...]
};

// Prompts typed as token ids: one prompt a line, ids separated by spaces or commas (a JSON array
// a line reads too). nullopt with `error` naming the line and the bad id.
std::optional<std::vector<std::vector<int64_t>>> parsePromptIds(const QString& text,
                                                                QString* error);

// Text prompts typed in one box: prompts separated by a line holding only "---", so that a
// prompt may span several lines. Empty prompts are left out.
QStringList splitPrompts(const QString& text);

}  // namespace moe::ui
