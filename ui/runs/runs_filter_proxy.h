// RunsFilterProxy: the runs table filtered by a search text and a status, sorted by the source's
// raw sort role. Works on any source model that provides RunsTableModel's search, status and sort
// roles.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

namespace moe::ui {

class RunsFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit RunsFilterProxy(QObject* parent = nullptr);

  // Space-separated words, each of which must occur (case-insensitive) in a run's name, id,
  // status, host or directory.
  void setFilterText(const QString& text);
  QString filterText() const { return words_.join(QLatin1Char(' ')); }

  // Only runs with this status; empty: every status.
  void setStatusFilter(const QString& status);
  QString statusFilter() const { return status_; }

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;
  // Numbers numerically, text naturally; an unknown value sorts before any known one.
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  QStringList words_;
  QString status_;
};

}  // namespace moe::ui
