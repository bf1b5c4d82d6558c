#include "base/telemetry/layer_store.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace moe::ui::detail {

namespace {
int32_t toInt32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}
}  // namespace

std::array<std::vector<double>*, 9> LayerStore::doubles() {
  LayerColumns& c = scalars_;
  return {&c.step,           &c.t,     &c.dropped_frac, &c.cv, &c.max_over_mean, &c.load_entropy,
          &c.router_entropy, &c.l_aux, &c.z_loss};
}

std::array<const std::vector<double>*, 9> LayerStore::doubles() const {
  const LayerColumns& c = scalars_;
  return {&c.step,           &c.t,     &c.dropped_frac, &c.cv, &c.max_over_mean, &c.load_entropy,
          &c.router_entropy, &c.l_aux, &c.z_loss};
}

LayerStore::LayerStore(int64_t layer, size_t experts) : counts_(experts) {
  scalars_.layer = layer;
  scalars_.experts = experts;
}

bool LayerStore::store(const protocol::ExpertLoadEvent& e, uint64_t version) {
  const size_t n = experts();
  if (e.counts.size() != n || e.kept.size() != n || e.importance.size() != n) return false;
  if (e.bias && e.bias->size() != n) return false;
  const double step = static_cast<double>(e.step);
  const RowSlot slot = findSlot(scalars_.step, step);
  storeBias(slot, e.bias);
  put(scalars_.step, slot, step);
  put(scalars_.t, slot, e.t);
  put(capacity_, slot, toInt32(e.capacity));
  put(scalars_.dropped_frac, slot, e.dropped_frac);
  put(scalars_.cv, slot, e.cv);
  put(scalars_.max_over_mean, slot, e.max_over_mean);
  put(scalars_.load_entropy, slot, e.load_entropy);
  put(scalars_.router_entropy, slot, e.router_entropy);
  put(dead_experts_, slot, toInt32(e.dead_experts));
  put(scalars_.l_aux, slot, e.l_aux);
  put(scalars_.z_loss, slot, e.z_loss);
  counts_.put(slot, e.counts);
  if (slot.row + 1 == rows()) {  // the newest row (appended, or the newest replaced)
    latest_importance_.resize(n);
    for (size_t i = 0; i < n; ++i) latest_importance_[i] = quantizeShare(e.importance[i]);
  }

  bool derived = true;
  for (size_t i = 0; i < n && derived; ++i) {
    derived = e.kept[i] == std::min(e.counts[i], e.capacity);
  }
  if (derived) {
    kept_exceptions_.erase(step);
  } else {
    std::vector<int32_t>& kept = kept_exceptions_[step];
    kept.resize(n);
    for (size_t i = 0; i < n; ++i) {
      kept[i] = static_cast<int32_t>(
          std::clamp<int64_t>(e.kept[i], 0, std::numeric_limits<int32_t>::max()));
    }
  }
  changes_.record(version, step);
  return true;
}

void LayerStore::storeBias(RowSlot slot, const std::optional<std::vector<double>>& bias) {
  const size_t n = experts();
  if (!bias && bias_.empty()) return;
  constexpr float kNoBias = std::numeric_limits<float>::quiet_NaN();
  if (bias_.empty()) bias_.assign(rows() * n, kNoBias);  // the rows before the first bias
  std::vector<float> row(n, kNoBias);
  if (bias) std::transform(bias->begin(), bias->end(), row.begin(), [](double b) { return b; });
  putRow(bias_, n, slot, row.data());
}

void LayerStore::reserve(size_t rows) {
  reserveRows(doubles(), rows);
  capacity_.reserve(rows);
  dead_experts_.reserve(rows);
  counts_.reserve(rows);
}

LayerColumns LayerStore::columns(const StepRange& range) const {
  LayerColumns out;
  out.layer = scalars_.layer;
  out.experts = scalars_.experts;
  out.replace_from = range.first;
  auto [begin, end] = rowsIn(scalars_.step, range);
  LayerColumns& o = out;
  const std::array<std::vector<double>*, 9> to{
      &o.step,           &o.t,     &o.dropped_frac, &o.cv, &o.max_over_mean, &o.load_entropy,
      &o.router_entropy, &o.l_aux, &o.z_loss};
  copyRows(doubles(), to, begin, end);
  const auto first = static_cast<std::ptrdiff_t>(begin), last = static_cast<std::ptrdiff_t>(end);
  out.capacity.assign(capacity_.begin() + first, capacity_.begin() + last);
  out.dead_experts.assign(dead_experts_.begin() + first, dead_experts_.begin() + last);
  return out;
}

std::optional<LayerColumns> LayerStore::changesSince(uint64_t version) const {
  std::optional<double> from = changes_.since(version);
  if (!from) return std::nullopt;
  LayerColumns out = columns(StepRange::between(*from, std::numeric_limits<double>::infinity()));
  out.replace_from = *from;
  return out;
}

std::optional<protocol::ExpertLoadEvent> LayerStore::row(std::optional<double> step) const {
  if (rows() == 0) return std::nullopt;
  size_t r = rows() - 1;
  if (step) {
    auto it = std::upper_bound(scalars_.step.begin(), scalars_.step.end(), *step);
    if (it == scalars_.step.begin()) return std::nullopt;
    r = static_cast<size_t>(it - scalars_.step.begin()) - 1;
  }
  protocol::ExpertLoadEvent e;
  e.t = scalars_.t[r];
  e.step = static_cast<int64_t>(scalars_.step[r]);
  e.layer = scalars_.layer;
  e.capacity = capacity_[r];
  e.dropped_frac = scalars_.dropped_frac[r];
  e.cv = scalars_.cv[r];
  e.max_over_mean = scalars_.max_over_mean[r];
  e.load_entropy = scalars_.load_entropy[r];
  e.router_entropy = scalars_.router_entropy[r];
  e.dead_experts = dead_experts_[r];
  e.l_aux = scalars_.l_aux[r];
  e.z_loss = scalars_.z_loss[r];
  const size_t n = experts();
  e.counts.resize(n);
  e.kept.resize(n);
  for (size_t i = 0; i < n; ++i) {
    e.counts[i] = counts_.at(r, i);
    e.kept[i] = static_cast<int64_t>(value(r, i, LoadValue::kKept));
  }
  if (!bias_.empty() && !std::isnan(bias_[r * n])) {
    e.bias.emplace(bias_.begin() + static_cast<std::ptrdiff_t>(r * n),
                   bias_.begin() + static_cast<std::ptrdiff_t>((r + 1) * n));
  }
  if (r + 1 == rows()) {
    e.importance.resize(n);
    for (size_t i = 0; i < n; ++i) e.importance[i] = dequantizeShare(latest_importance_[i]);
  }
  return e;
}

double LayerStore::value(size_t row, size_t expert, LoadValue what) const {
  switch (what) {
    case LoadValue::kCounts:
      return counts_.at(row, expert);
    case LoadValue::kBias:
      return bias_.empty() ? std::numeric_limits<double>::quiet_NaN()
                           : bias_[row * experts() + expert];
    case LoadValue::kKept:
      break;
  }
  if (!kept_exceptions_.empty()) {
    auto it = kept_exceptions_.find(scalars_.step[row]);
    if (it != kept_exceptions_.end()) return it->second[expert];
  }
  return std::min<double>(counts_.at(row, expert), capacity_[row]);
}

LoadMatrix LayerStore::matrix(const StepRange& range, size_t max_bins, LoadValue what) const {
  LoadMatrix m;
  m.layer = scalars_.layer;
  m.experts = experts();
  auto [begin, end] = rowsIn(scalars_.step, range);
  const size_t rows = end - begin;
  if (rows == 0 || max_bins == 0) return m;
  m.bins = std::min(rows, max_bins);
  m.first_step.resize(m.bins);
  m.last_step.resize(m.bins);
  m.values.assign(m.bins * m.experts, 0.0f);
  for (size_t b = 0; b < m.bins; ++b) {
    const auto [lo, hi] = binRows(begin, rows, m.bins, b);
    m.first_step[b] = scalars_.step[lo];
    m.last_step[b] = scalars_.step[hi - 1];
    float* out = &m.values[b * m.experts];
    for (size_t r = lo; r < hi; ++r)
      m.max_capacity = std::max<double>(m.max_capacity, capacity_[r]);
    if (what == LoadValue::kCounts) {  // the common case, on raw rows
      counts_.addRows(lo, hi, out);
    } else {
      for (size_t r = lo; r < hi; ++r) {
        for (size_t i = 0; i < m.experts; ++i) out[i] += static_cast<float>(value(r, i, what));
      }
    }
    const float scale = 1.0f / static_cast<float>(hi - lo);
    for (size_t i = 0; i < m.experts; ++i) {
      out[i] *= scale;
      const double size = what == LoadValue::kBias ? std::abs(out[i]) : out[i];
      if (size > m.max_value) m.max_value = size;  // a bin without a bias is NaN: never larger
    }
  }
  return m;
}

size_t LayerStore::bytes() const {
  size_t kept = 0;
  for (const auto& [step, values] : kept_exceptions_) kept += 64 + values.capacity() * 4;
  return columnBytes(doubles()) +
         (capacity_.capacity() + dead_experts_.capacity()) * sizeof(int32_t) + counts_.bytes() +
         latest_importance_.capacity() * sizeof(uint16_t) + bias_.capacity() * sizeof(float) + kept;
}

}  // namespace moe::ui::detail
