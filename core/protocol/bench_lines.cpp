#include "protocol/bench_lines.h"

#include <utility>

#include "line_text.h"

namespace moe::protocol {

namespace {

using json = nlohmann::json;
using detail::line_text;

int64_t integer_or_zero(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

}  // namespace

std::string bench_start_line(const BenchStart& s) {
  return line_text(json{{"type", "bench_start"},
                        {"configs", s.configs},
                        {"mode", s.mode},
                        {"iters", s.iters},
                        {"min_time", s.min_time},
                        {"naive", s.naive}});
}

std::string bench_config_line(json figures, int64_t index, int64_t of, double seconds) {
  figures["type"] = "bench_config";
  figures["index"] = index;
  figures["of"] = of;
  figures["seconds"] = seconds;
  return line_text(figures);
}

std::string bench_end_line(int64_t configs, double seconds) {
  return line_text(json{{"type", "bench_end"}, {"configs", configs}, {"seconds", seconds}});
}

BenchLine parse_bench_line(std::string_view text) {
  BenchLine line;
  json j = json::parse(text, nullptr, false);
  if (!j.is_object()) {
    line.error = std::string("not a JSON object (") +
                 (j.is_discarded() ? "not valid JSON" : "another value") +
                 "): " + std::string(text.substr(0, 120));
    return line;
  }
  const auto type = j.find("type");
  const std::string kind = type != j.end() && type->is_string() ? type->get<std::string>() : "";
  if (kind == "bench_start" || kind == "bench_end") {
    line.kind = kind == "bench_start" ? BenchLine::Kind::Start : BenchLine::Kind::End;
    line.configs = integer_or_zero(j, "configs");
    line.object = std::move(j);
    return line;
  }
  if (kind == "bench_config") {
    const auto config = j.find("config");
    const auto rate = j.find("train_tokens_per_s");
    if (config == j.end() || !config->is_object() || rate == j.end() || !rate->is_number()) {
      line.error = "a bench_config line without config or train_tokens_per_s";
      return line;
    }
    line.kind = BenchLine::Kind::Config;
    line.configs = integer_or_zero(j, "of");
    line.index = integer_or_zero(j, "index");
    line.object = std::move(j);
    return line;
  }
  line.error = "unknown line type \"" + kind + "\"";
  return line;
}

}  // namespace moe::protocol
