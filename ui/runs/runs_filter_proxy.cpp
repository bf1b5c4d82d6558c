// RunsFilterProxy (runs_filter_proxy.h).
#include "runs/runs_filter_proxy.h"

#include <QCollator>

#include "runs/runs_table_model.h"

namespace moe::ui {

RunsFilterProxy::RunsFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(RunsTableModel::kSortRole);
  setDynamicSortFilter(true);  // live updates keep their place in a sorted, filtered view
}

void RunsFilterProxy::setFilterText(const QString& text) {
  const QStringList words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
  if (words == words_) return;
  words_ = words;
  invalidateRowsFilter();
}

void RunsFilterProxy::setStatusFilter(const QString& status) {
  if (status == status_) return;
  status_ = status;
  invalidateRowsFilter();
}

bool RunsFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
  const QModelIndex index = sourceModel()->index(source_row, 0, source_parent);
  if (!status_.isEmpty() && index.data(RunsTableModel::kStatusRole).toString() != status_) {
    return false;
  }
  const QString text = index.data(RunsTableModel::kSearchTextRole).toString();
  for (const QString& word : words_) {
    if (!text.contains(word)) return false;
  }
  return true;
}

bool RunsFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const QVariant a = left.data(sortRole()), b = right.data(sortRole());
  if (!a.isValid() || !b.isValid()) return !a.isValid() && b.isValid();
  if (a.typeId() == QMetaType::Double && b.typeId() == QMetaType::Double) {
    return a.toDouble() < b.toDouble();
  }
  static const QCollator collator = [] {
    QCollator c;
    c.setNumericMode(true);  // "run-9" before "run-10"
    c.setCaseSensitivity(Qt::CaseInsensitive);
    return c;
  }();
  return collator.compare(a.toString(), b.toString()) < 0;
}

}  // namespace moe::ui
