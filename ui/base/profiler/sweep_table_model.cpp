#include "base/profiler/sweep_table_model.h"

#include <QJsonValue>
#include <QLocale>

#include "base/storage/csv_text.h"

namespace moe::ui {

namespace {

QString full(double v) {
  return QString::number(v, 'g', 17);
}

QString jsonText(const QJsonValue& v) {
  if (v.isString()) return v.toString();
  if (v.isBool()) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
  return full(v.toDouble());
}

// The value the sort proxy compares in a column: the raw number, not its display text.
QVariant sortValue(const BenchResult& r, int column) {
  using M = SweepTableModel;
  switch (column) {
    case M::Index:
      return r.index;
    case M::Config:
      return configLabel(r.config);
    case M::Tokens:
      return r.tokens;
    case M::Capacity:
      return r.capacity;
    case M::TrainTokens:
      return r.train_tokens_per_s;
    case M::NaiveTokens:
      return r.naive_train_tokens_per_s;
    case M::Speedup:
      return r.naive_speedup;
    case M::Tflops:
      return r.train_tflops;
    case M::Efficiency:
      return r.efficiency;
    case M::Routing:
      return r.routing_share;
    case M::TrainMs:
      return r.train_ms;
    case M::CeilingMs:
      return r.ceiling_train_ms;
    case M::Threads:
      return r.threads;
    case M::Seconds:
      return r.seconds;
    default:
      return {};
  }
}

// A column's text, as the table shows it ("–" where the naive layer was not measured).
QVariant displayValue(const BenchResult& r, int column) {
  using M = SweepTableModel;
  const bool naive = r.naive_train_tokens_per_s > 0;
  const QLocale locale;
  switch (column) {
    case M::Index:
      return r.index + 1;
    case M::Config:
      return configLabel(r.config);
    case M::Tokens:
      return locale.toString(r.tokens);
    case M::Capacity:
      return locale.toString(r.capacity);
    case M::TrainTokens:
      return locale.toString(r.train_tokens_per_s, 'f', 0);
    case M::NaiveTokens:
      return naive ? locale.toString(r.naive_train_tokens_per_s, 'f', 0) : QStringLiteral("–");
    case M::Speedup:
      return naive ? QString::number(r.naive_speedup, 'f', 2) + QLatin1Char('x')
                   : QStringLiteral("–");
    case M::Tflops:
      return QString::number(r.train_tflops, 'f', 4);
    case M::Efficiency:
      return QString::number(r.efficiency, 'f', 3);
    case M::Routing:
      return QString::number(100 * r.routing_share, 'f', 1) + QStringLiteral(" %");
    case M::TrainMs:
      return QString::number(r.train_ms, 'f', 3);
    case M::CeilingMs:
      return QString::number(r.ceiling_train_ms, 'f', 3);
    case M::Threads:
      return r.threads;
    case M::Seconds:
      return QString::number(r.seconds, 'f', 1);
    default:
      return {};
  }
}

}  // namespace

SweepTableModel::SweepTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepTableModel::setResults(const QList<BenchResult>& results) {
  beginResetModel();
  results_ = results;
  endResetModel();
}

void SweepTableModel::append(const BenchResult& result) {
  beginInsertRows({}, results_.size(), results_.size());
  results_.append(result);
  endInsertRows();
}

void SweepTableModel::clear() {
  setResults({});
}

int SweepTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(results_.size());
}

int SweepTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant SweepTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= results_.size()) return {};
  const BenchResult& r = results_[index.row()];
  if (role == kSortRole) return sortValue(r, index.column());
  if (role == Qt::TextAlignmentRole) {
    return index.column() == Config || index.column() == Threads
               ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  return displayValue(r, index.column());
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* const kHeaders[ColumnCount] = {
      "#",       "Config",     "Tokens",  "Capacity", "Train tok/s", "Naive tok/s", "Speed-up",
      "TFLOP/s", "Efficiency", "Routing", "Train ms", "Ceiling ms",  "Threads",     "Seconds"};
  static const char* const kTips[ColumnCount] = {
      "Order in the sweep",
      "The swept keys and their values",
      "N = tokens per layer step",
      "Slots per expert",
      "Tokens per second, forward and backward",
      "The naive GShard layer's tokens per second",
      "Naive layer time / our layer time (median over rounds)",
      "Expert FLOPs per second (3 x 4 N k M H per step)",
      "Six expert GEMMs alone / the layer (1 = routing costs nothing)",
      "Gate, dispatch and combine, forward and backward, as a share of the layer's time",
      "One forward and backward of the layer (median)",
      "The six expert GEMMs alone (median)",
      "Threads the layer ran under: the fastest for the GEMMs",
      "Wall time spent measuring this config"};
  if (section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) return tr(kHeaders[section]);
  if (role == Qt::ToolTipRole) return tr(kTips[section]);
  return {};
}

QString sweepCsv(const QList<BenchResult>& results) {
  QStringList keys, phases;
  for (const BenchResult& r : results) {
    for (auto it = r.config.begin(); it != r.config.end(); ++it) {
      if (!keys.contains(it.key())) keys << it.key();
    }
    for (auto it = r.phases_ms.begin(); it != r.phases_ms.end(); ++it) {
      if (!phases.contains(it.key())) phases << it.key();
    }
  }
  QStringList header{QStringLiteral("index"), QStringLiteral("config")};
  header << keys;
  header << QStringLiteral("tokens") << QStringLiteral("capacity")
         << QStringLiteral("train_tokens_per_s") << QStringLiteral("naive_train_tokens_per_s")
         << QStringLiteral("naive_speedup") << QStringLiteral("train_tflops")
         << QStringLiteral("efficiency") << QStringLiteral("routing_share")
         << QStringLiteral("train_ms") << QStringLiteral("ceiling_train_ms")
         << QStringLiteral("threads") << QStringLiteral("seconds");
  for (const QString& p : phases) header << QStringLiteral("phase.%1_ms").arg(p);
  QStringList lines;
  QStringList quoted_header;
  for (const QString& h : header) quoted_header << csvField(h);
  lines << quoted_header.join(QLatin1Char(','));
  for (const BenchResult& r : results) {
    QStringList row{QString::number(r.index), configLabel(r.config)};
    for (const QString& k : keys)
      row << (r.config.contains(k) ? jsonText(r.config.value(k)) : QString());
    row << QString::number(r.tokens) << QString::number(r.capacity) << full(r.train_tokens_per_s)
        << full(r.naive_train_tokens_per_s) << full(r.naive_speedup) << full(r.train_tflops)
        << full(r.efficiency) << full(r.routing_share) << full(r.train_ms)
        << full(r.ceiling_train_ms) << r.threads << full(r.seconds);
    for (const QString& p : phases)
      row << (r.phases_ms.contains(p) ? full(r.phases_ms.value(p)) : QString());
    for (QString& field : row) field = csvField(field);
    lines << row.join(QLatin1Char(','));
  }
  return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace moe::ui
