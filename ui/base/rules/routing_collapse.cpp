// Routing health rules (routing_collapse.h).
#include "base/rules/routing_collapse.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <optional>

namespace moe::ui {

namespace {

struct Streak {
  size_t first = 0;  // row index where the current bad streak starts
  size_t rows = 0;
};

// The bad streak that ends at the latest row, when it is sustained (routing_collapse.h).
template <typename IsBad>
std::optional<Streak> currentStreak(const std::vector<double>& column, IsBad is_bad,
                                    const CollapseThresholds& t) {
  const size_t n = column.size();
  size_t first = n;
  while (first > 0 && is_bad(column[first - 1])) --first;
  const size_t rows = n - first;
  if (rows == 0) return std::nullopt;
  if (rows >= t.sustained_rows) return Streak{first, rows};
  if (n >= t.sustained_rows) return std::nullopt;
  // A short run: a bad row before the streak means it recovered in between; too early to tell.
  for (size_t i = 0; i < first; ++i) {
    if (is_bad(column[i])) return std::nullopt;
  }
  if (rows < t.min_short_rows) return std::nullopt;
  return Streak{first, rows};
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
std::string
format(const char* pattern, ...) {
  char buffer[256];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(buffer, sizeof buffer, pattern, args);
  va_end(args);
  return buffer;
}

RoutingWarning makeWarning(const LayerColumns& layer, RoutingProblem kind, const Streak& streak,
                           const std::vector<double>& column) {
  RoutingWarning w;
  w.layer = layer.layer;
  w.kind = kind;
  w.since_step = static_cast<int64_t>(layer.step[streak.first]);
  w.latest_step = static_cast<int64_t>(layer.step.back());
  w.rows = streak.rows;
  w.value = column.back();
  return w;
}

}  // namespace

std::vector<RoutingWarning> detectRoutingProblems(const std::vector<LayerColumns>& layers,
                                                  const CollapseThresholds& t) {
  std::vector<RoutingWarning> out;
  const auto layer_name = [](int64_t layer) { return static_cast<long long>(layer); };
  for (const LayerColumns& layer : layers) {
    if (layer.size() == 0) continue;
    // NaN compares false, so a NaN row is never bad.
    const auto collapsed = [&](double h) { return h < t.min_load_entropy; };
    const auto dead = [](double d) { return d > 0; };
    const auto imbalanced = [&](double m) { return m > t.max_over_mean; };

    const auto collapse = currentStreak(layer.load_entropy, collapsed, t);
    if (collapse) {
      RoutingWarning w =
          makeWarning(layer, RoutingProblem::kCollapse, *collapse, layer.load_entropy);
      w.message =
          format("Layer %lld: routing collapsed \u2014 load entropy %.2f (< %g) since step %lld",
                 layer_name(layer.layer), w.value, t.min_load_entropy,
                 static_cast<long long>(w.since_step));
      out.push_back(std::move(w));
    }
    if (const auto streak = currentStreak(layer.dead_experts, dead, t)) {
      RoutingWarning w =
          makeWarning(layer, RoutingProblem::kDeadExperts, *streak, layer.dead_experts);
      const long long span = w.latest_step - w.since_step;
      w.message = format("Layer %lld: %lld of %zu experts dead for %lld step%s (since step %lld)",
                         layer_name(layer.layer), std::llround(w.value), layer.experts, span,
                         span == 1 ? "" : "s", static_cast<long long>(w.since_step));
      out.push_back(std::move(w));
    }
    if (collapse) continue;  // a collapsed layer is imbalanced too: say the stronger thing
    if (const auto streak = currentStreak(layer.max_over_mean, imbalanced, t)) {
      RoutingWarning w =
          makeWarning(layer, RoutingProblem::kImbalanced, *streak, layer.max_over_mean);
      w.message = format(
          "Layer %lld: load imbalanced \u2014 busiest expert at %.1fx the mean load (> %g) since "
          "step %lld",
          layer_name(layer.layer), w.value, t.max_over_mean, static_cast<long long>(w.since_step));
      out.push_back(std::move(w));
    }
  }
  return out;
}

const char* routingProblemName(RoutingProblem kind) {
  switch (kind) {
    case RoutingProblem::kCollapse:
      return "collapse";
    case RoutingProblem::kDeadExperts:
      return "dead experts";
    case RoutingProblem::kImbalanced:
      return "imbalanced";
  }
  return "";
}

}  // namespace moe::ui
