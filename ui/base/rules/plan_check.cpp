#include "base/rules/plan_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moe::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

int64_t warmupSteps(int64_t planned_steps) {
  return std::max<int64_t>(3, (std::max<int64_t>(planned_steps, 0) + 9) / 10);
}

double medianOf(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return kNaN;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + middle);
  return (lower + upper) / 2;
}

namespace {

// The values of `column` in the rows whose step is after `warmup`.
template <typename T>
std::vector<double> after(const std::vector<double>& step, const std::vector<T>& column,
                          int64_t warmup) {
  std::vector<double> out;
  for (size_t row = 0; row < step.size() && row < column.size(); ++row)
    if (step[row] > static_cast<double>(warmup)) out.push_back(static_cast<double>(column[row]));
  return out;
}

std::optional<MeasuredRank> slowestRank(const RankColumns& ranks, int64_t warmup) {
  std::optional<MeasuredRank> slowest;
  for (const RankSeries& r : ranks.ranks) {
    const double step_ms = medianOf(after(ranks.step, r.step_ms, warmup));
    if (std::isnan(step_ms) || (slowest && step_ms <= slowest->step_ms)) continue;
    slowest = MeasuredRank{r.rank,
                           r.host,
                           step_ms,
                           medianOf(after(ranks.step, r.compute_ms, warmup)),
                           medianOf(after(ranks.step, r.a2a_ms, warmup)),
                           medianOf(after(ranks.step, r.allreduce_ms, warmup))};
  }
  return slowest;
}

}  // namespace

MeasuredRun measureRun(const StepColumns& steps, const PhaseColumns& phases,
                       const RankColumns& ranks, int64_t warmup) {
  MeasuredRun run;
  run.warmup = warmup;
  const std::vector<double> step_ms = after(steps.step, steps.step_ms, warmup);
  run.steps = step_ms.size();
  run.step_ms = medianOf(step_ms);
  for (size_t p = 0; p < phases.names.size() && p < phases.ms.size(); ++p) {
    const double ms = medianOf(after(phases.step, phases.ms[p], warmup));
    if (!std::isnan(ms)) run.phase_ms.emplace_back(phases.names[p], ms);
  }
  run.slowest = slowestRank(ranks, warmup);
  return run;
}

std::vector<std::pair<std::string, double>> phaseShares(
    const std::vector<std::pair<std::string, double>>& phase_ms) {
  double total = 0;
  for (const auto& [name, ms] : phase_ms) total += std::max(ms, 0.0);
  std::vector<std::pair<std::string, double>> shares;
  for (const auto& [name, ms] : phase_ms)
    shares.emplace_back(name, total > 0 ? std::max(ms, 0.0) / total : 0.0);
  return shares;
}

RunLayout runLayout(const protocol::RunConfig& config, int64_t world_size,
                    const std::vector<protocol::AdaptiveREvent>& decisions) {
  RunLayout out;
  out.layout = plan::config_layout(config);
  const int64_t world = std::max<int64_t>(world_size, 1);
  if (world % out.layout.nodes == 0) {
    out.layout.nproc_per_node = world / out.layout.nodes;
  } else {
    out.layout.nodes = 1;
    out.layout.nproc_per_node = world;
  }
  out.auto_r = config.parallel.adaptive_r == protocol::kAdaptiveRAuto;
  if (out.auto_r && !decisions.empty()) {
    const auto latest =
        std::max_element(decisions.begin(), decisions.end(),
                         [](const protocol::AdaptiveREvent& a, const protocol::AdaptiveREvent& b) {
                           return a.step < b.step;
                         });
    out.layout.r = latest->r;
    out.decided_at = latest->step;
  }
  return out;
}

double predictionError(double predicted, double measured) {
  if (!(measured > 0)) return kNaN;
  return predicted / measured - 1;
}

}  // namespace moe::ui
