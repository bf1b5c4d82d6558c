// libFuzzer: arbitrary bytes as a line of replay --serve in either direction. The readers never
// throw; a request they accept writes back to a line they read as the same request, and an answer
// they accept writes back to a line they read as an answer with the same figures.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/replay_lines.h"

using namespace moe::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const ReplayRequestRead request = parse_replay_request(line, 1);
  if (request.request) {
    const ReplayRequestRead back = parse_replay_request(replay_request_line(*request.request), 1);
    if (!back.request || back.request->moe != request.request->moe ||
        back.request->seed != request.request->seed)
      __builtin_trap();
  } else if (request.error.empty()) {
    __builtin_trap();
  }
  const ReplayLine read = parse_replay_line(line);
  if (read.kind == ReplayLine::Kind::Answer) {
    const ReplayLine back = parse_replay_line(replay_answer_line(*read.id, read.answer));
    if (back.kind != ReplayLine::Kind::Answer || back.answer.counts != read.answer.counts ||
        back.answer.kept != read.answer.kept || back.answer.capacity != read.answer.capacity)
      __builtin_trap();
  }
  if (read.kind == ReplayLine::Kind::Malformed && read.error.empty()) __builtin_trap();
  return 0;
}
