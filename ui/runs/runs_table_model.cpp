// RunsTableModel (runs_table_model.h).
#include "runs/runs_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

#include "base/experiment/human_units.h"

namespace moe::ui {

namespace {

QVariant number(const std::optional<double>& v) {
  return v ? QVariant(*v) : QVariant();
}

QString formatNumber(const std::optional<double>& v) {
  return v ? QString::number(*v, 'g', 4) : QString();
}

QString formatRate(const std::optional<double>& v) {
  return v ? QString::fromStdString(formatCount(*v)) : QString();
}

// "45s", "12m 05s", "3h 02m", "2d 4h".
QString formatDuration(qint64 seconds) {
  if (seconds < 60) return QStringLiteral("%1s").arg(seconds);
  const auto two = [](qint64 v) { return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0')); };
  if (seconds < 3600) return QStringLiteral("%1m %2s").arg(seconds / 60).arg(two(seconds % 60));
  if (seconds < 86400) {
    return QStringLiteral("%1h %2m").arg(seconds / 3600).arg(two(seconds % 3600 / 60));
  }
  return QStringLiteral("%1d %2h").arg(seconds / 86400).arg(seconds % 86400 / 3600);
}

// Seconds from start to end (now for a running run); -1 when unknown.
qint64 durationSeconds(const RunRecord& r) {
  if (!r.started_at.isValid()) return -1;
  QDateTime end = r.ended_at;
  if (!end.isValid()) {
    end = r.status == run_status::kRunning ? QDateTime::currentDateTime() : r.metrics_modified;
  }
  if (!end.isValid()) return -1;
  return std::max<qint64>(0, r.started_at.secsTo(end));
}

QColor statusColor(const QString& status) {
  if (status == run_status::kRunning) return QColor(0x1e, 0x6f, 0xd9);
  if (status == run_status::kFinished) return QColor(0x2e, 0x8b, 0x3e);
  if (status == run_status::kFailed) return QColor(0xc6, 0x28, 0x28);
  if (status == run_status::kCancelled) return QColor(0xc7, 0x7c, 0x02);
  return QColor(0x80, 0x80, 0x80);  // incomplete, missing
}

}  // namespace

RunsTableModel::RunsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsTableModel::setRecords(QList<RunRecord> records) {
  beginResetModel();
  records_ = std::move(records);
  endResetModel();
}

void RunsTableModel::upsert(const RunRecord& record) {
  const int row = rowOf(record.run_dir);
  if (row >= 0) {
    records_[row] = record;
    emit dataChanged(index(row, 0), index(row, kColumnCount - 1));
    return;
  }
  beginInsertRows({}, records_.size(), records_.size());
  records_.append(record);
  endInsertRows();
}

bool RunsTableModel::removeRun(const QString& run_dir) {
  const int row = rowOf(run_dir);
  if (row < 0) return false;
  beginRemoveRows({}, row, row);
  records_.removeAt(row);
  endRemoveRows();
  return true;
}

int RunsTableModel::rowOf(const QString& run_dir) const {
  for (int i = 0; i < records_.size(); ++i) {
    if (records_[i].run_dir == run_dir) return i;
  }
  return -1;
}

bool RunsTableModel::anyAccuracy() const {
  return std::any_of(records_.begin(), records_.end(),
                     [](const RunRecord& r) { return r.accuracy_best.has_value(); });
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : records_.size();
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= records_.size()) return {};
  const RunRecord& r = records_[index.row()];
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return display(r, column);
    case kSortRole:
      return sortValue(r, column);
    case Qt::ToolTipRole:
      return toolTip(r, column);
    case kSearchTextRole:
      return QStringList{r.name, r.id, r.status, r.target, r.host, r.run_dir}
          .join(QLatin1Char(' '))
          .toLower();
    case kStatusRole:
      return r.status;
    case kRunDirRole:
      return r.run_dir;
    case kTargetRole:
      return r.target;
    case Qt::ForegroundRole:
      if (column == kStatus) return QBrush(statusColor(r.status));
      break;
    case Qt::FontRole:
      if (r.status == run_status::kMissing) {
        QFont font;
        font.setItalic(true);
        return font;
      }
      break;
    case Qt::TextAlignmentRole:
      if (column >= kDuration && column <= kTokensPerSMax) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      }
      break;
    default:
      break;
  }
  return {};
}

QVariant RunsTableModel::display(const RunRecord& r, int column) const {
  switch (column) {
    case kName:
      return r.displayName();
    case kStatus:
      return r.status;
    case kStarted:
      return r.started_at.isValid()
                 ? r.started_at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                 : QString();
    case kDuration: {
      const qint64 s = durationSeconds(r);
      return s >= 0 ? formatDuration(s) : QString();
    }
    case kSteps:
      if (!r.steps_done) {
        return r.total_steps ? QStringLiteral("0 / %1").arg(*r.total_steps) : QString();
      }
      return r.total_steps ? QStringLiteral("%1 / %2").arg(*r.steps_done).arg(*r.total_steps)
                           : QString::number(*r.steps_done);
    case kLossLast:
      return formatNumber(r.loss_last);
    case kLossMin:
      return formatNumber(r.loss_min);
    case kLossMax:
      return formatNumber(r.loss_max);
    case kEvalLossBest:
      return formatNumber(r.eval_loss_best);
    case kAccuracyBest:
      return r.accuracy_best ? QStringLiteral("%1%").arg(*r.accuracy_best * 100, 0, 'f', 1)
                             : QString();
    case kTokensPerSLast:
      return formatRate(r.tokens_per_s_last);
    case kTokensPerSMax:
      return formatRate(r.tokens_per_s_max);
    case kTarget:
      return r.target;
    case kHost:
      return r.host;
    case kConfigHash:
      return r.config_hash.left(10);
    case kDirectory:
      return r.run_dir;
    default:
      return {};
  }
}

QVariant RunsTableModel::sortValue(const RunRecord& r, int column) const {
  switch (column) {
    case kName:
      return r.displayName();
    case kStatus:
      return r.status;
    case kStarted:
      return r.started_at.isValid() ? QVariant(double(r.started_at.toMSecsSinceEpoch()))
                                    : QVariant();
    case kDuration: {
      const qint64 s = durationSeconds(r);
      return s >= 0 ? QVariant(double(s)) : QVariant();
    }
    case kSteps:
      return r.steps_done ? QVariant(double(*r.steps_done)) : QVariant();
    case kLossLast:
      return number(r.loss_last);
    case kLossMin:
      return number(r.loss_min);
    case kLossMax:
      return number(r.loss_max);
    case kEvalLossBest:
      return number(r.eval_loss_best);
    case kAccuracyBest:
      return number(r.accuracy_best);
    case kTokensPerSLast:
      return number(r.tokens_per_s_last);
    case kTokensPerSMax:
      return number(r.tokens_per_s_max);
    case kTarget:
      return r.target;
    case kHost:
      return r.host;
    case kConfigHash:
      return r.config_hash;
    case kDirectory:
      return r.run_dir;
    default:
      return {};
  }
}

QVariant RunsTableModel::toolTip(const RunRecord& r, int column) const {
  switch (column) {
    case kName:
      return r.id;
    case kStatus: {
      QString tip = r.error;
      if (r.restarts > 0)
        tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
               tr("Every rank was started again %n time(s) after a failure", nullptr,
                  static_cast<int>(r.restarts));
      return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case kConfigHash:
      return r.config_hash.isEmpty() ? QVariant() : QVariant(r.config_hash);
    case kDirectory:
      return r.run_dir;
    case kHost:
      if (r.device.isEmpty()) return {};
      return QStringLiteral("%1, %2 process(es)").arg(r.device).arg(r.world_size.value_or(1));
    default:
      return {};
  }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[kColumnCount] = {"Name",
                                                    "Status",
                                                    "Started",
                                                    "Duration",
                                                    "Steps",
                                                    "Loss (last)",
                                                    "Loss (min)",
                                                    "Loss (max)",
                                                    "Eval loss (best)",
                                                    "Accuracy (best)",
                                                    "Tokens/s (last)",
                                                    "Tokens/s (max)",
                                                    "Target",
                                                    "Host",
                                                    "Config hash",
                                                    "Directory"};
  if (section < 0 || section >= kColumnCount) return {};
  return tr(kTitles[section]);
}

}  // namespace moe::ui
