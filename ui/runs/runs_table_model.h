// RunsTableModel: the runs list as a table, one row per RunRecord. DisplayRole is formatted for
// people; kSortRole holds raw values (numbers as double, times as ms) so sorting is numeric.
#pragma once

#include <QAbstractTableModel>
#include <QList>

#include "base/runs/run_record.h"

namespace moe::ui {

class RunsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kName,
    kStatus,
    kStarted,
    kDuration,
    kSteps,
    kLossLast,
    kLossMin,
    kLossMax,
    kEvalLossBest,
    kAccuracyBest,  // the view hides it while no run has an accuracy
    kTokensPerSLast,
    kTokensPerSMax,
    kTarget,  // "local", or the remote target the run went to
    kHost,
    kConfigHash,
    kDirectory,
    kColumnCount
  };
  enum Role {
    kSortRole = Qt::UserRole,  // raw value; invalid when unknown
    kSearchTextRole,  // name, id, status, target, host, directory in lower case (any column)
    kStatusRole,      // the status string (any column)
    kRunDirRole,      // the run directory (any column)
    kTargetRole,      // the target's name, "local" for this machine (any column)
  };

  explicit RunsTableModel(QObject* parent = nullptr);

  void setRecords(QList<RunRecord> records);
  // Replaces the row with the same run_dir, or appends one (live updates).
  void upsert(const RunRecord& record);
  // Drops the row with this run_dir; false when there is none.
  bool removeRun(const QString& run_dir);

  const RunRecord& record(int row) const { return records_.at(row); }
  const QList<RunRecord>& records() const { return records_; }
  int rowOf(const QString& run_dir) const;  // -1 when absent
  bool anyAccuracy() const;                 // some run has an eval accuracy

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant display(const RunRecord& r, int column) const;
  QVariant sortValue(const RunRecord& r, int column) const;
  QVariant toolTip(const RunRecord& r, int column) const;

  QList<RunRecord> records_;
};

}  // namespace moe::ui
