#include "plan/profile_fields.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace moe::plan {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

const json& member(const json& obj, const char* key, const std::string& where) {
  if (!obj.is_object()) fail(where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) fail(where + "/" + key, "missing");
  return *it;
}

// A finite number >= 0 (> 0 when `positive`).
double number(const json& obj, const char* key, const std::string& where, bool positive = false) {
  const json& v = member(obj, key, where);
  if (!v.is_number()) fail(where + "/" + key, "expected a number, got " + v.dump());
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < 0 || (positive && x == 0)) {
    fail(where + "/" + key,
         std::string("must be ") + (positive ? "> 0" : ">= 0") + ", got " + v.dump());
  }
  return x;
}

double optional_number(const json& obj, const char* key, const std::string& where,
                       double fallback) {
  return obj.contains(key) ? number(obj, key, where) : fallback;
}

std::string text(const json& obj, const char* key, const std::string& where) {
  const json& v = member(obj, key, where);
  if (!v.is_string()) fail(where + "/" + key, "expected a string, got " + v.dump());
  return v.get<std::string>();
}

GemmRate gemm_from_json(const json& g, const std::string& where) {
  GemmRate r;
  r.m = int64_t(number(g, "m", where, true));
  r.k = int64_t(number(g, "k", where, true));
  r.n = int64_t(number(g, "n", where, true));
  r.batch = int64_t(optional_number(g, "batch", where, 1));
  r.ranks = std::max<int64_t>(1, int64_t(optional_number(g, "ranks", where, 1)));
  r.dtype = text(g, "dtype", where);
  r.flops_per_s = number(g, "flops_per_s", where, true);
  r.backward_flops_per_s = optional_number(g, "backward_flops_per_s", where, 0);
  if (g.contains("op")) {
    const std::string op = text(g, "op", where);
    if (op != "gemm" && op != "expert_ffn")
      fail(where + "/op", "expected \"gemm\" or \"expert_ffn\", got \"" + op + "\"");
    r.expert_ffn = op == "expert_ffn";
  }
  return r;
}

DeviceProfile device_from_json(const json& d, const std::string& where) {
  DeviceProfile p;
  p.name = text(d, "name", where);
  p.peak_flops_float32 = number(d, "peak_flops_float32", where, true);
  p.peak_flops_bfloat16 = number(d, "peak_flops_bfloat16", where);
  p.peak_flops_float64 = number(d, "peak_flops_float64", where);
  p.gemm_efficiency = number(d, "gemm_efficiency", where, true);
  if (p.gemm_efficiency > 1) fail(where + "/gemm_efficiency", "must be at most 1");
  p.memory_bandwidth = number(d, "memory_bandwidth", where, true);
  p.memory_bytes = number(d, "memory_bytes", where, true);
  p.runtime_bytes = number(d, "runtime_bytes", where);
  p.op_overhead_s = number(d, "op_overhead_s", where);
  p.devices_per_node = int64_t(number(d, "devices_per_node", where, true));
  if (d.contains("gemm_rates")) {
    const json& rates = d["gemm_rates"];
    if (!rates.is_array()) fail(where + "/gemm_rates", "expected an array");
    for (size_t i = 0; i < rates.size(); ++i) {
      p.gemm_rates.push_back(gemm_from_json(rates[i], where + "/gemm_rates/" + std::to_string(i)));
    }
  }
  return p;
}

LinkProfile network_link(const json& doc, const std::string& origin) {
  if (doc.contains("inter_node"))
    return link_from_json(doc["inter_node"], origin + ": /inter_node");
  const std::string network = text(doc, "network", origin + ": ");
  const std::string* shipped = shipped_profile_text(network);
  if (!shipped) fail(origin + ": /network", "no shipped network profile \"" + network + "\"");
  const json net = json::parse(*shipped, nullptr, true, true);
  return link_from_json(member(net, "inter_node", network), network + ": /inter_node");
}

json link_to_json(const LinkProfile& l) {
  return {{"name", l.name},
          {"ranks", l.ranks},
          {"all_to_all_latency_s", l.all_to_all_latency_s},
          {"all_to_all_bandwidth", l.all_to_all_bandwidth},
          {"all_reduce_latency_s", l.all_reduce_latency_s},
          {"all_reduce_bandwidth", l.all_reduce_bandwidth}};
}

}  // namespace

LinkProfile link_from_json(const json& l, const std::string& where) {
  LinkProfile p;
  p.name = text(l, "name", where);
  p.ranks = int64_t(optional_number(l, "ranks", where, 0));
  p.all_to_all_latency_s = number(l, "all_to_all_latency_s", where);
  p.all_to_all_bandwidth = number(l, "all_to_all_bandwidth", where, true);
  p.all_reduce_latency_s = number(l, "all_reduce_latency_s", where);
  p.all_reduce_bandwidth = number(l, "all_reduce_bandwidth", where, true);
  return p;
}

HardwareProfile profile_from_json(const json& doc, const std::string& origin) {
  const std::string root = origin + ": ";
  if (!doc.is_object()) fail(origin, "expected a JSON object");
  if (number(doc, "schema", root) != 1) fail(root + "/schema", "must be 1");
  const std::string kind = text(doc, "kind", root);
  if (kind != "device") fail(root + "/kind", "expected \"device\", got \"" + kind + "\"");
  HardwareProfile p;
  p.name = text(doc, "name", root);
  p.description = doc.value("description", std::string());
  p.device = device_from_json(member(doc, "device", root), root + "/device");
  const json& links = member(doc, "intra_node", root);
  if (!links.is_array() || links.empty()) fail(root + "/intra_node", "expected a non-empty array");
  for (size_t i = 0; i < links.size(); ++i) {
    p.intra_node.push_back(link_from_json(links[i], root + "/intra_node/" + std::to_string(i)));
  }
  p.inter_node = network_link(doc, origin);
  p.allreduce_overlap = optional_number(doc, "allreduce_overlap", root, p.allreduce_overlap);
  if (p.allreduce_overlap > 1) fail(root + "/allreduce_overlap", "must be at most 1");
  return p;
}

json profile_to_json(const HardwareProfile& p) {
  const DeviceProfile& d = p.device;
  json rates = json::array();
  for (const GemmRate& r : d.gemm_rates) {
    rates.push_back({{"m", r.m},
                     {"k", r.k},
                     {"n", r.n},
                     {"batch", r.batch},
                     {"ranks", r.ranks},
                     {"dtype", r.dtype},
                     {"flops_per_s", r.flops_per_s}});
    if (r.backward_flops_per_s > 0) rates.back()["backward_flops_per_s"] = r.backward_flops_per_s;
    if (r.expert_ffn) rates.back()["op"] = "expert_ffn";
  }
  json intra = json::array();
  for (const LinkProfile& l : p.intra_node) intra.push_back(link_to_json(l));
  return {{"schema", 1},
          {"kind", "device"},
          {"name", p.name},
          {"description", p.description},
          {"device",
           {{"name", d.name},
            {"peak_flops_float32", d.peak_flops_float32},
            {"peak_flops_bfloat16", d.peak_flops_bfloat16},
            {"peak_flops_float64", d.peak_flops_float64},
            {"gemm_efficiency", d.gemm_efficiency},
            {"memory_bandwidth", d.memory_bandwidth},
            {"memory_bytes", d.memory_bytes},
            {"runtime_bytes", d.runtime_bytes},
            {"op_overhead_s", d.op_overhead_s},
            {"devices_per_node", d.devices_per_node},
            {"gemm_rates", rates}}},
          {"intra_node", intra},
          {"inter_node", link_to_json(p.inter_node)},
          {"allreduce_overlap", p.allreduce_overlap}};
}

}  // namespace moe::plan
