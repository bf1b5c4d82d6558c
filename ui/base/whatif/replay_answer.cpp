#include "base/whatif/replay_answer.h"

#include <utility>

namespace moe::ui {

ReplayLine parseReplayLine(std::string_view text) {
  protocol::ReplayLine read = protocol::parse_replay_line(text);
  ReplayLine line;
  line.kind = read.kind;
  line.id = read.id;
  line.answer = std::move(read.answer);
  line.error = QString::fromStdString(read.error);
  line.experts = read.experts;
  line.tokens = read.tokens;
  line.dim = read.dim;
  return line;
}

}  // namespace moe::ui
