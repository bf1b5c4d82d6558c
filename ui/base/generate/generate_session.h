// GenerateSession: what one `moe-train generate` run has told so far, built from its telemetry
// lines (generate_events.h) as they arrive: each prompt's tokens and generated tokens with their
// routing, the decode steps' speeds and phases, the generated tokens' expert load per MoE layer,
// and the figures at the end. The Generate tab draws from it; it draws nothing itself.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "base/generate/generate_events.h"

namespace moe::ui {

// The phases of a decode step, in the order the step runs them ("other" is the rest).
inline constexpr const char* kDecodePhases[] = {"attention", "router",  "dispatch",
                                                "experts",   "combine", "sampling"};

struct GeneratedToken {
  int64_t id = 0;
  QString piece;
  std::vector<TokenRouting> routing;  // one per MoE layer, in the token line's order
  double t = 0;                       // seconds since generation started

  // This token's choice in decoder layer `layer`; null when the line had none for it.
  const TokenRouting* routingOf(int layer) const;
  // Its best expert in `layer`; -1 when unknown.
  int topExpert(int layer) const;
};

struct PromptRecord {
  std::vector<int64_t> tokens;
  QStringList pieces;  // empty without a tokenizer
  std::vector<GeneratedToken> generated;
  std::optional<PromptEndEvent> end;
};

class GenerateSession {
 public:
  // What a batch of lines changed, so that the view redraws only that.
  struct Changes {
    bool started = false;                     // generate_start: the layers are known (or changed)
    bool prompts = false;                     // a prompt line or a prompt's end
    std::vector<std::pair<int, int>> tokens;  // (prompt, index) of each new generated token
    bool steps = false;                       // decode steps
    bool ended = false;                       // generate_end
    bool any() const { return started || prompts || !tokens.empty() || steps || ended; }
  };

  Changes add(const std::vector<GenerateLine>& lines);
  void clear();

  const std::optional<GenerateStartEvent>& start() const { return start_; }
  const std::vector<GenerateMoeLayer>& moeLayers() const;
  // The position of decoder layer `layer` among moeLayers(); -1 when it is none of them.
  int layerPosition(int layer) const;

  const std::vector<PromptRecord>& prompts() const { return prompts_; }
  const GeneratedToken* token(int prompt, int index) const;
  int64_t generatedCount() const { return generated_; }

  const std::vector<DecodeStepEvent>& steps() const { return steps_; }
  const std::optional<GenerateEndEvent>& end() const { return end_; }

  // load()[position][expert]: how often the generated tokens chose the expert (each of the k
  // choices counts), per MoE layer in moeLayers() order.
  const std::vector<std::vector<int64_t>>& load() const { return load_; }

  // Live figures: the engine's own at the end, until then the best estimate so far.
  double decodeTokensPerS() const;  // last decode step's, then generate_end's
  double ttftMs() const;  // first token's time, then the prompts' mean, then generate_end's
  // Each phase's milliseconds summed over the decode steps, in kDecodePhases order.
  std::vector<std::pair<QString, double>> phaseTotals() const;

  int badLines() const { return bad_lines_; }
  QString lastBadLine() const { return last_bad_; }

 private:
  PromptRecord& promptAt(int prompt);
  // False (and the line counted bad) for a prompt index no generation has.
  bool knownPrompt(int prompt, const char* line_type);
  bool addToken(const TokenEvent& token);
  void countBad(const QString& why);

  std::optional<GenerateStartEvent> start_;
  std::vector<PromptRecord> prompts_;
  std::vector<DecodeStepEvent> steps_;
  std::optional<GenerateEndEvent> end_;
  std::vector<std::vector<int64_t>> load_;
  int64_t generated_ = 0;
  double first_token_s_ = -1;
  int bad_lines_ = 0;
  QString last_bad_;
};

}  // namespace moe::ui
