// The multi-process events, ranks and adaptive_r (docs/PROTOCOL.md, "Telemetry"), from their JSON
// fields; telemetry_event_parser.cpp hands them here.
#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>
#include <vector>

#include "protocol/telemetry_fields.h"

namespace moe::protocol::detail {
namespace {

using json = nlohmann::json;

// One entry of ranks[]; `where` is "ranks[i]" for the error.
RankFigures parse_rank(const json& item, const std::string& where, EventFields& f) {
  RankFigures r;
  if (!item.is_object()) {
    f.fail("\"" + where + "\": expected an object, got " + detail::describe_json(item));
    return r;
  }
  EventFields g(item);
  r.rank = g.integer("rank");
  r.host = g.optional_string("host").value_or("");
  r.step_ms = g.number("step_ms");
  r.compute_ms = g.number("compute_ms");
  r.a2a_ms = g.number("a2a_ms");
  r.allreduce_ms = g.number("allreduce_ms");
  r.tokens = g.integer("tokens");
  r.peak_bytes = g.integer("peak_bytes");
  if (g.ok() && r.rank < 0) g.fail("\"rank\": must be >= 0, got " + std::to_string(r.rank));
  if (!g.ok()) f.fail(where + ": " + g.error());
  return r;
}

RanksEvent parse_ranks(EventFields& f) {
  RanksEvent e;
  e.step = f.integer("step");
  const json* ranks = f.find("ranks");
  if (ranks && !ranks->is_array()) f.fail("ranks", "an array", *ranks);
  if (!ranks || !ranks->is_array() || !f.ok()) return e;
  e.ranks.reserve(ranks->size());
  std::vector<int64_t> seen;
  for (size_t i = 0; i < ranks->size() && f.ok(); ++i) {
    e.ranks.push_back(parse_rank((*ranks)[i], "ranks[" + std::to_string(i) + "]", f));
    seen.push_back(e.ranks.back().rank);
  }
  // Views key their rows by rank: one step cannot say two things about one rank.
  std::sort(seen.begin(), seen.end());
  if (f.ok() && std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
    f.fail("\"ranks\": a rank appears twice");
  }
  return e;
}

// "tried" keys are r in decimal ("0", "12"); anything else ("01", "x", "1.5") is malformed.
std::optional<int64_t> r_key(const std::string& key) {
  int64_t r = 0;
  const char* end = key.data() + key.size();
  auto [ptr, ec] = std::from_chars(key.data(), end, r);
  if (ec != std::errc() || ptr != end || std::to_string(r) != key) return std::nullopt;
  return r;
}

AdaptiveREvent parse_adaptive_r(EventFields& f) {
  AdaptiveREvent e;
  e.step = f.integer("step");
  e.r = f.integer("r");
  const json* tried = f.find("tried");
  if (tried && !tried->is_object()) f.fail("tried", "an object", *tried);
  if (tried && tried->is_object()) {
    for (const auto& item : tried->items()) {
      std::optional<int64_t> r = r_key(item.key());
      const json& v = item.value();
      if (!r) {
        f.fail("\"tried\": expected integer keys, got " + detail::quote(item.key()));
        break;
      }
      if (!v.is_number() && !v.is_null()) {
        f.fail("\"tried\": expected numbers, got " + detail::describe_json(v));
        break;
      }
      e.tried[*r] = v.is_null() ? EventFields::kNaN : v.get<double>();
    }
  }
  e.reason = f.optional_string("reason").value_or("");
  return e;
}

}  // namespace

std::optional<TelemetryEvent> parse_parallel_event(const std::string& type, EventFields& f) {
  if (type == RanksEvent::kType) return parse_ranks(f);
  if (type == AdaptiveREvent::kType) return parse_adaptive_r(f);
  return std::nullopt;
}

}  // namespace moe::protocol::detail
