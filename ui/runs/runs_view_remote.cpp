// RunsView's remote runs (runs_view.h): "Fetch from target" on the selected remote runs, as a
// button and in the table's context menu, and what the fetches say back.
#include <QAction>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

#include <algorithm>

#include "base/runs/run_store_worker.h"
#include "runs/runs_table_model.h"
#include "runs/runs_view.h"

namespace moe::ui {

void RunsView::setUpFetch() {
  const QString tip =
      tr("Copy the selected remote runs' directories (checkpoints, logs, config) "
         "from their targets into the local runs folder");
  fetch_->setToolTip(tip);
  fetch_action_->setToolTip(tip);
  table_->setContextMenuPolicy(Qt::ActionsContextMenu);
  table_->addAction(fetch_action_);
  const auto request = [this] {
    const QStringList dirs = selectedRemoteRunDirs();
    if (!dirs.isEmpty()) emit fetchRequested(dirs);
  };
  connect(fetch_, &QPushButton::clicked, this, request);
  connect(fetch_action_, &QAction::triggered, this, request);
}

QStringList RunsView::selectedRemoteRunDirs() const {
  QModelIndexList rows = table_->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(),
            [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  QStringList dirs;
  for (const QModelIndex& index : rows) {
    const QString target = index.data(RunsTableModel::kTargetRole).toString();
    if (!target.isEmpty() && target != RunRecord::kLocalTarget)
      dirs << index.data(RunsTableModel::kRunDirRole).toString();
  }
  return dirs;
}

void RunsView::showFetchProgress(const QString& run_dir, const QString& text) {
  message_->setText(QStringLiteral("%1: %2").arg(QFileInfo(run_dir).fileName(), text));
  message_->setToolTip(text);
}

void RunsView::showFetchResult(const QString& run_dir, bool ok, const QString& error) {
  const QString name = QFileInfo(run_dir).fileName();
  message_->setText(ok ? tr("Fetched %1").arg(name) : tr("Fetch of %1 failed").arg(name));
  message_->setToolTip(ok ? run_dir : error);
  if (ok && worker_) worker_->addDirectory(run_dir);  // its new files: config, times, status
}

}  // namespace moe::ui
