#include "protocol/telemetry_reader.h"

#include <utility>

namespace moe::protocol {

TelemetryReader::TelemetryReader(size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

std::vector<TelemetryEvent> TelemetryReader::feed(std::string_view bytes) {
  std::vector<TelemetryEvent> events;
  feed(bytes, [&](TelemetryEvent&& e) { events.push_back(std::move(e)); });
  return events;
}

void TelemetryReader::feed(std::string_view bytes,
                           const std::function<void(TelemetryEvent&&)>& sink) {
  auto oversized = [&] {
    ++stats_.lines;
    ++stats_.malformed;
    ++stats_.oversized;
    last_error_ = "line longer than " + std::to_string(max_line_bytes_) + " bytes";
  };
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t newline = bytes.find('\n', pos);
    std::string_view piece = bytes.substr(
        pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
    if (newline == std::string_view::npos) {  // an incomplete line: keep it for the next chunk
      if (discarding_) break;
      if (pending_.size() + piece.size() > max_line_bytes_) {
        oversized();
        pending_.clear();
        pending_.shrink_to_fit();
        discarding_ = true;
      } else {
        pending_.append(piece);
      }
      break;
    }
    pos = newline + 1;
    if (discarding_) {  // the end of an oversized line, already counted
      discarding_ = false;
      continue;
    }
    if (pending_.size() + piece.size() > max_line_bytes_) {
      oversized();
      pending_.clear();
      continue;
    }
    if (pending_.empty()) {
      take_line(piece, sink);
    } else {
      pending_.append(piece);
      std::string line = std::move(pending_);
      pending_.clear();
      take_line(line, sink);
    }
  }
}

std::vector<TelemetryEvent> TelemetryReader::finish() {
  std::vector<TelemetryEvent> events;
  discarding_ = false;
  if (!pending_.empty()) {
    std::string line = std::move(pending_);
    pending_.clear();
    take_line(line, [&](TelemetryEvent&& e) { events.push_back(std::move(e)); });
  }
  return events;
}

void TelemetryReader::take_line(std::string_view line,
                                const std::function<void(TelemetryEvent&&)>& sink) {
  LineKind kind;
  std::string error;
  std::optional<TelemetryEvent> event = parse_event_line(line, &kind, &error);
  if (kind == LineKind::kBlank) return;
  ++stats_.lines;
  switch (kind) {
    case LineKind::kEvent:
      ++stats_.events;
      sink(std::move(*event));
      break;
    case LineKind::kUnknown:
      ++stats_.unknown;
      break;
    default:
      ++stats_.malformed;
      last_error_ = std::move(error);
      break;
  }
}

}  // namespace moe::protocol
