#include "plan/hardware_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "plan/profile_fields.h"

namespace moe::plan {
namespace {

using nlohmann::json;

// Log-distance between two GEMM shapes: shapes a factor apart in any dimension are far apart.
// An entry of the other kind (plain GEMM, expert FFN) counts only where none of the query's is.
double shape_distance(const GemmRate& r, const GemmQuery& q) {
  const auto d = [](double a, double b) {
    const double x = std::log(std::max(a, 1.0) / std::max(b, 1.0));
    return x * x;
  };
  const double other_kind = r.expert_ffn != q.expert_ffn ? 1e6 : 0.0;
  return d(double(r.m), double(q.m)) + d(double(r.k), double(q.k)) + d(double(r.n), double(q.n)) +
         d(double(r.batch), double(q.batch)) + 4 * d(double(r.ranks), double(q.ranks)) + other_kind;
}

}  // namespace

const LinkProfile& HardwareProfile::intra_node_for(int64_t ranks) const {
  if (intra_node.empty()) throw std::invalid_argument(name + ": no intra_node link");
  const LinkProfile* best = &intra_node.front();
  for (const LinkProfile& link : intra_node) {
    if (std::llabs(link.ranks - ranks) < std::llabs(best->ranks - ranks)) best = &link;
  }
  return *best;
}

double HardwareProfile::peak_flops(const std::string& dtype) const {
  if (dtype == "bfloat16") return device.peak_flops_bfloat16;
  if (dtype == "float64") return device.peak_flops_float64;
  return device.peak_flops_float32;  // float16 runs as float32 in the engine
}

double HardwareProfile::gemm_rate(int64_t m, int64_t k, int64_t n, const std::string& dtype,
                                  int64_t batch, int64_t ranks) const {
  return gemm_rate(GemmQuery{m, k, n, batch, ranks}, dtype);
}

double HardwareProfile::gemm_rate(const GemmQuery& q, const std::string& dtype) const {
  const std::string type = dtype == "float16" ? "float32" : dtype;
  const GemmRate* nearest = nullptr;
  double best = std::numeric_limits<double>::infinity();
  for (const GemmRate& r : device.gemm_rates) {
    if (r.dtype != type) continue;
    const double d = shape_distance(r, q);
    if (d < best) best = d, nearest = &r;
  }
  if (nearest) {
    const double rate = q.backward && nearest->backward_flops_per_s > 0
                            ? nearest->backward_flops_per_s
                            : nearest->flops_per_s;
    return rate * double(nearest->ranks);
  }
  const double peak = peak_flops(type);
  // A dtype without figures of its own runs at float32's (the engine computes it anyway).
  if (peak <= 0 && type != "float32") return gemm_rate(q, "float32");
  return peak * device.gemm_efficiency;
}

HardwareProfile parse_profile(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text, nullptr, true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    throw std::invalid_argument(origin + ": not JSON: " + e.what());
  }
  return profile_from_json(doc, origin);
}

std::string profile_json(const HardwareProfile& profile) {
  return profile_to_json(profile).dump(2) + "\n";
}

}  // namespace moe::plan
