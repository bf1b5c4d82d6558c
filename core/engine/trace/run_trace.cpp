#include "trace/run_trace.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>

namespace moe::trace {

namespace {

const nlohmann::json& other_data(const nlohmann::json& document) {
  static const nlohmann::json none = nlohmann::json::object();
  auto it = document.find("otherData");
  return it != document.end() && it->is_object() ? *it : none;
}

int64_t origin_of(const nlohmann::json& document) {
  return other_data(document).value("origin_unix_us", int64_t{0});
}

std::string rank_trace_path(const std::string& run_dir, int64_t rank) {
  return run_dir + "/trace.rank" + std::to_string(rank) + ".json";
}

}  // namespace

nlohmann::json merge_traces(const std::vector<nlohmann::json>& documents) {
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const auto& d : documents) origin = std::min(origin, origin_of(d));
  if (documents.empty()) origin = 0;
  nlohmann::json events = nlohmann::json::array();
  uint64_t dropped = 0;
  for (const auto& d : documents) {
    const int64_t shift = origin_of(d) - origin;
    for (nlohmann::json e : d.at("traceEvents")) {
      if (e.contains("ts")) e["ts"] = e["ts"].get<int64_t>() + shift;
      events.push_back(std::move(e));
    }
    dropped += other_data(d).value("dropped_events", uint64_t{0});
  }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData", {{"dropped_events", dropped}, {"origin_unix_us", origin}}}};
}

std::vector<std::string> write_run_trace(TraceRecorder& trace, const std::string& run_dir,
                                         dist::ProcessGroup& group, const std::string& host,
                                         bool ranks_agree) {
  const int64_t rank = group.rank();
  trace.name_process(static_cast<int>(rank), "rank " + std::to_string(rank) + " (" + host + ")");
  std::vector<std::string> warnings;
  if (group.is_single()) {
    trace.write(run_dir + "/trace.json");
    return warnings;
  }
  if (rank != 0) trace.write(rank_trace_path(run_dir, rank));
  if (ranks_agree) group.barrier();  // every rank's file is complete past this point
  if (rank != 0) return warnings;

  std::vector<nlohmann::json> documents{trace.document()};
  std::vector<std::string> merged;
  for (int64_t r = 1; r < group.world_size(); ++r) {
    const std::string path = rank_trace_path(run_dir, r);
    std::ifstream in(path, std::ios::binary);
    nlohmann::json d = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!in.is_open() || !d.is_object() || !d.contains("traceEvents") ||
        !d["traceEvents"].is_array()) {
      warnings.push_back("trace.json lacks rank " + std::to_string(r) + ": " + path +
                         (in.is_open() ? " is not a trace" : " was not written"));
      continue;
    }
    documents.push_back(std::move(d));
    merged.push_back(path);
  }
  write_trace_file(run_dir + "/trace.json", merge_traces(documents));
  for (const auto& path : merged) std::remove(path.c_str());
  return warnings;
}

}  // namespace moe::trace
