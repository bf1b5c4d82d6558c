#include "base/generate/generate_session.h"

#include <algorithm>
#include <map>

namespace moe::ui {

namespace {

// Prompt indices far past the start line's count are a broken line, not a reason to allocate.
constexpr int kMaxPromptIndex = 1 << 20;

}  // namespace

const TokenRouting* GeneratedToken::routingOf(int layer) const {
  for (const TokenRouting& r : routing) {
    if (r.layer == layer) return &r;
  }
  return nullptr;
}

int GeneratedToken::topExpert(int layer) const {
  const TokenRouting* r = routingOf(layer);
  return r && !r->experts.empty() ? r->experts.front() : -1;
}

void GenerateSession::clear() {
  *this = GenerateSession();
}

const std::vector<GenerateMoeLayer>& GenerateSession::moeLayers() const {
  static const std::vector<GenerateMoeLayer> kNone;
  return start_ ? start_->moe_layers : kNone;
}

int GenerateSession::layerPosition(int layer) const {
  const auto& layers = moeLayers();
  for (size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].layer == layer) return static_cast<int>(i);
  }
  return -1;
}

const GeneratedToken* GenerateSession::token(int prompt, int index) const {
  if (prompt < 0 || prompt >= static_cast<int>(prompts_.size())) return nullptr;
  const auto& generated = prompts_[static_cast<size_t>(prompt)].generated;
  if (index < 0 || index >= static_cast<int>(generated.size())) return nullptr;
  return &generated[static_cast<size_t>(index)];
}

PromptRecord& GenerateSession::promptAt(int prompt) {
  if (prompt >= static_cast<int>(prompts_.size())) prompts_.resize(static_cast<size_t>(prompt) + 1);
  return prompts_[static_cast<size_t>(prompt)];
}

void GenerateSession::countBad(const QString& why) {
  ++bad_lines_;
  last_bad_ = why;
}

bool GenerateSession::knownPrompt(int prompt, const char* line_type) {
  if (prompt >= 0 && prompt <= kMaxPromptIndex) return true;
  countBad(QStringLiteral("%1: prompt %2 out of range").arg(QLatin1String(line_type)).arg(prompt));
  return false;
}

bool GenerateSession::addToken(const TokenEvent& token) {
  if (!knownPrompt(token.prompt, "token")) return false;
  PromptRecord& record = promptAt(token.prompt);
  // Tokens of a prompt come in order; a gap or a repeat means lines were lost or garbled.
  if (token.index != static_cast<int>(record.generated.size())) {
    countBad(QStringLiteral("token: prompt %1 index %2 after %3 tokens")
                 .arg(token.prompt)
                 .arg(token.index)
                 .arg(record.generated.size()));
    return false;
  }
  record.generated.push_back({token.id, token.piece, token.routing, token.t});
  ++generated_;
  if (first_token_s_ < 0) first_token_s_ = token.t;
  for (const TokenRouting& r : token.routing) {
    const int position = layerPosition(r.layer);
    if (position < 0) continue;
    std::vector<int64_t>& counts = load_[static_cast<size_t>(position)];
    for (int expert : r.experts) {
      if (expert >= 0 && expert < static_cast<int>(counts.size()))
        ++counts[static_cast<size_t>(expert)];
    }
  }
  return true;
}

GenerateSession::Changes GenerateSession::add(const std::vector<GenerateLine>& lines) {
  Changes changes;
  for (const GenerateLine& line : lines) {
    switch (line.kind) {
      case GenerateLine::Kind::Start:
        start_ = line.start;
        load_.assign(line.start.moe_layers.size(), {});
        for (size_t i = 0; i < load_.size(); ++i) {
          load_[i].assign(static_cast<size_t>(line.start.moe_layers[i].experts), 0);
        }
        changes.started = true;
        break;
      case GenerateLine::Kind::Prompt:
        if (!knownPrompt(line.prompt.prompt, "prompt")) break;
        promptAt(line.prompt.prompt).tokens = line.prompt.tokens;
        promptAt(line.prompt.prompt).pieces = line.prompt.pieces;
        changes.prompts = true;
        break;
      case GenerateLine::Kind::Token:
        if (addToken(line.token)) changes.tokens.emplace_back(line.token.prompt, line.token.index);
        break;
      case GenerateLine::Kind::DecodeStep:
        steps_.push_back(line.step);
        changes.steps = true;
        break;
      case GenerateLine::Kind::PromptEnd:
        if (!knownPrompt(line.prompt_end.prompt, "prompt_end")) break;
        promptAt(line.prompt_end.prompt).end = line.prompt_end;
        changes.prompts = true;
        break;
      case GenerateLine::Kind::End:
        end_ = line.end;
        changes.ended = true;
        break;
      case GenerateLine::Kind::Unknown:
        break;
      case GenerateLine::Kind::Bad:
        countBad(line.error);
        break;
    }
  }
  return changes;
}

double GenerateSession::decodeTokensPerS() const {
  if (end_) return end_->decode_tokens_per_s;
  return steps_.empty() ? 0 : steps_.back().tokens_per_s;
}

double GenerateSession::ttftMs() const {
  if (end_ && end_->ttft_ms > 0) return end_->ttft_ms;
  double sum = 0;
  int ended = 0;
  for (const PromptRecord& p : prompts_) {
    if (p.end && p.end->ttft_ms > 0) {
      sum += p.end->ttft_ms;
      ++ended;
    }
  }
  if (ended) return sum / ended;
  return first_token_s_ < 0 ? 0 : first_token_s_ * 1000;
}

std::vector<std::pair<QString, double>> GenerateSession::phaseTotals() const {
  std::map<QString, double> totals;
  for (const DecodeStepEvent& step : steps_) {
    for (const auto& [name, ms] : step.phases_ms) totals[name] += ms;
  }
  // The decode step's own order, then any phase a later engine adds, then "other".
  std::vector<std::pair<QString, double>> ordered;
  for (const char* name : kDecodePhases) {
    if (const auto it = totals.find(QLatin1String(name)); it != totals.end()) {
      ordered.emplace_back(*it);
      totals.erase(it);
    }
  }
  const auto other = totals.extract(QStringLiteral("other"));
  ordered.insert(ordered.end(), totals.begin(), totals.end());
  if (other) ordered.emplace_back(other.key(), other.mapped());
  return ordered;
}

}  // namespace moe::ui
