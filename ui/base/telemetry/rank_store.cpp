#include "base/telemetry/rank_store.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/telemetry/column_ops.h"

namespace moe::ui::detail {

namespace {

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();

// The figures in RankStore's column order.
std::array<double, 6> figuresOf(const protocol::RankFigures& r) {
  return {r.step_ms,
          r.compute_ms,
          r.a2a_ms,
          r.allreduce_ms,
          static_cast<double>(r.tokens),
          static_cast<double>(r.peak_bytes)};
}

std::array<std::vector<double>*, 6> seriesColumns(RankSeries& s) {
  return {&s.step_ms, &s.compute_ms, &s.a2a_ms, &s.allreduce_ms, &s.tokens, &s.peak_bytes};
}

}  // namespace

size_t RankStore::rankIndex(int64_t rank) {
  auto it = std::lower_bound(ranks_.begin(), ranks_.end(), rank,
                             [](const Rank& r, int64_t value) { return r.rank < value; });
  if (it != ranks_.end() && it->rank == rank) return static_cast<size_t>(it - ranks_.begin());
  Rank added;
  added.rank = rank;
  for (auto& column : added.figures) {
    column.reserve(std::max(reserved_, rows()));
    column.assign(rows(), kNaNf);
  }
  return static_cast<size_t>(ranks_.insert(it, std::move(added)) - ranks_.begin());
}

void RankStore::store(const protocol::RanksEvent& e, uint64_t version) {
  // Ranks first seen here are added before the row, so their columns hold exactly the rows held
  // so far; then each held rank takes its entry of the event, or NaN when the event has none.
  for (const protocol::RankFigures& r : e.ranks) rankIndex(r.rank);
  std::vector<const protocol::RankFigures*> entry_of(ranks_.size(), nullptr);
  for (const protocol::RankFigures& r : e.ranks) {
    const size_t i = rankIndex(r.rank);
    if (!r.host.empty()) ranks_[i].host = r.host;  // host is optional: keep what we know
    entry_of[i] = &r;
  }
  const double step = static_cast<double>(e.step);
  const RowSlot slot = findSlot(step_, step);
  put(step_, slot, step);
  put(t_, slot, e.t);
  for (size_t i = 0; i < ranks_.size(); ++i) {
    std::array<double, kFigures> values;
    values.fill(std::numeric_limits<double>::quiet_NaN());
    if (entry_of[i]) values = figuresOf(*entry_of[i]);
    for (size_t f = 0; f < kFigures; ++f) put(ranks_[i].figures[f], slot, values[f]);
  }
  changes_.record(version, step);
}

void RankStore::reserve(size_t rows) {
  reserved_ = rows;
  step_.reserve(rows);
  t_.reserve(rows);
  for (Rank& r : ranks_) {
    for (auto& column : r.figures) column.reserve(rows);
  }
}

void RankStore::clear() {
  *this = RankStore();
}

RankColumns RankStore::columns(const StepRange& range) const {
  RankColumns out;
  out.replace_from = range.first;
  const auto [begin, end] = rowsIn(step_, range);
  const auto first = static_cast<std::ptrdiff_t>(begin), last = static_cast<std::ptrdiff_t>(end);
  out.step.assign(step_.begin() + first, step_.begin() + last);
  out.t.assign(t_.begin() + first, t_.begin() + last);
  for (const Rank& r : ranks_) {
    RankSeries& s = out.ranks.emplace_back();
    s.rank = r.rank;
    s.host = r.host;
    const auto to = seriesColumns(s);
    for (size_t f = 0; f < kFigures; ++f) {
      to[f]->assign(r.figures[f].begin() + first, r.figures[f].begin() + last);
    }
  }
  return out;
}

std::optional<RankColumns> RankStore::changesSince(uint64_t version) const {
  std::optional<double> from = changes_.since(version);
  if (!from) return std::nullopt;
  RankColumns out = columns(StepRange::between(*from, std::numeric_limits<double>::infinity()));
  out.replace_from = *from;
  return out;
}

RankMatrix RankStore::matrix(const StepRange& range, size_t max_bins) const {
  RankMatrix m;
  for (const Rank& r : ranks_) {
    m.ranks.push_back(r.rank);
    m.hosts.push_back(r.host);
  }
  const auto [begin, end] = rowsIn(step_, range);
  const size_t rows = end - begin, width = ranks_.size();
  if (rows == 0 || max_bins == 0 || width == 0) return m;
  m.bins = std::min(rows, max_bins);
  m.first_step.resize(m.bins);
  m.last_step.resize(m.bins);
  m.values.assign(m.bins * width, kNaNf);
  for (size_t b = 0; b < m.bins; ++b) {
    const auto [lo, hi] = binRows(begin, rows, m.bins, b);
    m.first_step[b] = step_[lo];
    m.last_step[b] = step_[hi - 1];
    for (size_t i = 0; i < width; ++i) {
      const std::vector<float>& ms = ranks_[i].figures[0];
      double sum = 0;
      size_t reported = 0;
      for (size_t row = lo; row < hi; ++row) {
        if (!std::isfinite(ms[row])) continue;
        sum += ms[row];
        ++reported;
      }
      if (reported == 0) continue;
      const auto mean = static_cast<float>(sum / static_cast<double>(reported));
      m.values[b * width + i] = mean;
      m.max_value = std::max<double>(m.max_value, mean);
    }
  }
  return m;
}

size_t RankStore::bytes() const {
  size_t bytes = (step_.capacity() + t_.capacity()) * sizeof(double);
  for (const Rank& r : ranks_) {
    bytes += sizeof(Rank) + r.host.capacity();
    for (const auto& column : r.figures) bytes += column.capacity() * sizeof(float);
  }
  return bytes;
}

}  // namespace moe::ui::detail
