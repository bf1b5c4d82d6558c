#include "replay/replay_serve.h"

#include <chrono>
#include <iostream>
#include <string>
#include <utility>

#include "protocol/config_validation.h"
#include "protocol/json_text.h"
#include "protocol/replay_lines.h"
#include "replay/replay_layer.h"

namespace moe::replay {

namespace {

using json = nlohmann::json;

// A request that cannot be answered; `id` is echoed (null when the line was not an object).
struct RequestError {
  json id;
  std::string message;
};

// `patch` into `target`, objects recursively (a request names only the keys it changes).
void merge(json& target, const json& patch) {
  for (const auto& item : patch.items()) {
    json& slot = target[item.key()];
    if (item.value().is_object() && slot.is_object()) {
      merge(slot, item.value());
    } else {
      slot = item.value();
    }
  }
}

using protocol::kMaxReplayRequestBytes;

enum class LineRead { kLine, kTooLong, kEnd };

// The next line of `in` without its '\n' (a last line may lack it). Of a line longer than
// kMaxReplayRequestBytes only that much is kept, the rest is read and dropped.
LineRead read_request_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  bool any = false, too_long = false;
  for (int c; (c = buf->sbumpc()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') break;
    if (line.size() < kMaxReplayRequestBytes) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;
    }
  }
  if (!any) return LineRead::kEnd;
  return too_long ? LineRead::kTooLong : LineRead::kLine;
}

// false when `out` can no longer be written (the reader went away): the server then stops.
bool write_line(std::ostream& out, const std::string& line) {
  out << line << '\n' << std::flush;
  if (out) return true;
  std::cerr << "moe-train replay --serve: cannot write the answers to stdout; stopping\n";
  return false;
}

class ReplayServer {
 public:
  explicit ReplayServer(ReplayLayer r) : r_(std::move(r)) {
    base_ = protocol::to_json(r_.config);
    tokens_ = r_.input.reshape({-1, r_.config.model.dim});
  }

  std::string ready() const {
    return protocol::replay_ready_line(r_.config.moe.experts, tokens_.size(0), tokens_.size(1));
  }

  std::string answer(const std::string& line, int64_t line_number) {
    try {
      return route(parse(line, line_number));
    } catch (const RequestError& e) {
      return protocol::replay_error_line(e.id, e.message);
    }
  }

 private:
  struct Request {
    json id;
    protocol::MoeConfig moe;
    int64_t seed = 0;
  };

  // The line's syntax is the protocol's (protocol/replay_lines.h); its moe keys are merged onto
  // the loaded config and checked with the config's rules.
  Request parse(const std::string& line, int64_t line_number) const {
    protocol::ReplayRequestRead read = protocol::parse_replay_request(line, line_number);
    if (!read.request) throw RequestError{read.id, read.error};
    Request r;
    r.id = read.request->id;
    json config = base_;
    merge(config["moe"], read.request->moe);
    r.seed = read.request->seed.value_or(r_.config.seed);
    // The protocol's own rules, as for a config file; the data is never read here.
    protocol::RunConfig checked;
    const auto problems = protocol::check(config, &checked, protocol::ValidateOptions{false});
    if (!problems.empty()) {
      std::string message;
      for (const auto& p : problems)
        message += (message.empty() ? "" : "; ") + protocol::format_problem(p);
      throw RequestError{r.id, message};
    }
    check_fixed_by_tensors(r.id, checked.moe);
    r.moe = checked.moe;
    return r;
  }

  // Keys that shape the parameters come from the tensors.
  void check_fixed_by_tensors(const json& id, const protocol::MoeConfig& moe) const {
    const protocol::MoeConfig& loaded = r_.config.moe;
    const json& now = base_.at("moe");
    const auto fixed = [&](const char* key, bool same, const json& value) {
      if (!same) {
        throw RequestError{id, std::string("/moe/") + key + ": fixed by the tensors at " +
                                   now.at(key).dump() + ", got " + value.dump()};
      }
    };
    fixed("experts", moe.experts == loaded.experts, moe.experts);
    fixed("hidden", moe.hidden == loaded.hidden, moe.hidden);
    fixed("gate", moe.gate == loaded.gate, to_string(moe.gate));
    fixed("activation", moe.activation == loaded.activation, to_string(moe.activation));
    fixed("fc1_bias", moe.fc1_bias == loaded.fc1_bias, moe.fc1_bias);
    fixed("fc2_bias", moe.fc2_bias == loaded.fc2_bias, moe.fc2_bias);
    fixed("cosine_proj_dim",
          loaded.gate != protocol::Gate::Cosine || moe.cosine_proj_dim == loaded.cosine_proj_dim,
          moe.cosine_proj_dim);
  }

  std::string route(const Request& request) {
    torch::NoGradGuard no_grad;
    r_.layer->set_routing(request.moe);
    torch::manual_seed(static_cast<uint64_t>(request.seed));  // gate_noise > 0 draws from it
    const auto start = std::chrono::steady_clock::now();
    const layer::MoeOutput routed = r_.layer->route_only(tokens_);
    const layer::LoadStats s = routed.stats.host();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    protocol::ReplayAnswer a;
    a.capacity = s.capacity;
    a.counts = s.counts;
    a.kept = s.kept;
    a.l_aux = s.l_aux;
    a.dropped_frac = s.dropped_frac;
    a.cv = s.cv;
    a.max_over_mean = s.max_over_mean;
    a.load_entropy = s.load_entropy;
    a.router_entropy = s.router_entropy;
    a.dead_experts = s.dead_experts;
    a.importance = s.importance;
    a.tokens = tokens_.size(0);
    a.ms = ms;
    return protocol::replay_answer_line(request.id, a);
  }

  ReplayLayer r_;
  json base_;  // the loaded config; each request's moe keys are merged onto a copy
  at::Tensor tokens_;
};

}  // namespace

int serve_replay(const std::string& config_file, const std::string& tensors_file,
                 const std::string& prefix, std::istream& in, std::ostream& out) {
  ReplayServer server(load_replay_layer(config_file, tensors_file, prefix));
  if (!write_line(out, server.ready())) return 1;
  std::string line;
  int64_t line_number = 0;
  for (LineRead read; (read = read_request_line(in, line)) != LineRead::kEnd;) {
    ++line_number;
    if (read == LineRead::kTooLong) {
      const std::string why = "line " + std::to_string(line_number) + ": longer than " +
                              std::to_string(kMaxReplayRequestBytes) + " bytes";
      if (!write_line(out, protocol::replay_error_line(nullptr, why))) return 1;
      continue;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines ask nothing
    if (!write_line(out, server.answer(line, line_number))) return 1;
  }
  return 0;
}

}  // namespace moe::replay
