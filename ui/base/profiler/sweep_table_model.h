// SweepTableModel: one row per finished config of a sweep, one column per figure. Sorting goes
// through a QSortFilterProxyModel on kSortRole (the number, not its text).
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QStringList>

#include "base/profiler/bench_result.h"

namespace moe::ui {

class SweepTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int kSortRole = Qt::UserRole + 1;
  enum Column {
    Index,
    Config,
    Tokens,
    Capacity,
    TrainTokens,
    NaiveTokens,
    Speedup,
    Tflops,
    Efficiency,
    Routing,
    TrainMs,
    CeilingMs,
    Threads,
    Seconds,
    ColumnCount
  };

  explicit SweepTableModel(QObject* parent = nullptr);

  void setResults(const QList<BenchResult>& results);
  void append(const BenchResult& result);
  void clear();
  const QList<BenchResult>& results() const { return results_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QList<BenchResult> results_;
};

// The sweep as CSV (RFC 4180; numbers at full precision): index, config, one column per swept
// key, then the figures and one column per phase (phase.<name>_ms). The header names the columns.
QString sweepCsv(const QList<BenchResult>& results);

}  // namespace moe::ui
