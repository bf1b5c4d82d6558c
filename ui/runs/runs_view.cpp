// RunsView (runs_view.h).
#include "runs/runs_view.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "base/runs/run_directory_index.h"
#include "base/runs/run_store.h"
#include "base/runs/run_store_worker.h"
#include "runs/runs_filter_proxy.h"
#include "runs/runs_table_model.h"

namespace moe::ui {

namespace {

const QString kHeaderKey = QStringLiteral("runs/header");
const QString kUserSizedKey = QStringLiteral("runs/header_user_sized");
constexpr int kMaxFittedWidth = 320;  // a long directory or error must not push the rest away

}  // namespace

RunsView::RunsView(RunStore* store, QString runs_root, QWidget* parent)
    : QWidget(parent),
      runs_root_(std::move(runs_root)),
      model_(new RunsTableModel(this)),
      proxy_(new RunsFilterProxy(this)),
      filter_(new QLineEdit(this)),
      status_(new QComboBox(this)),
      table_(new QTableView(this)),
      open_(new QPushButton(tr("Open"), this)),
      edit_(new QPushButton(tr("Edit as experiment"), this)),
      compare_(new QPushButton(tr("Compare selected"), this)),
      add_(new QPushButton(tr("Add run directory…"), this)),
      rescan_(new QPushButton(tr("Rescan"), this)),
      remove_(new QPushButton(tr("Remove from list"), this)),
      fetch_(new QPushButton(tr("Fetch from target"), this)),
      fetch_action_(new QAction(tr("Fetch from target"), this)),
      generate_action_(new QAction(tr("Generate with this run…"), this)),
      message_(new QLabel(this)) {
  proxy_->setSourceModel(model_);
  if (store) worker_ = new RunStoreWorker(store->path(), this);
  buildLayout();
  connectActions();
  setUpFetch();
  refresh();
  updateButtons();
}

RunsView::~RunsView() {
  QSettings settings;
  settings.setValue(kHeaderKey, table_->horizontalHeader()->saveState());
  settings.setValue(kUserSizedKey, user_sized_);
}

void RunsView::buildLayout() {
  filter_->setPlaceholderText(tr("Filter runs: name, status, host…"));
  filter_->setClearButtonEnabled(true);
  status_->addItem(tr("All"), QString());
  for (const QString& s :
       {run_status::kRunning, run_status::kStarting, run_status::kFinished, run_status::kFailed,
        run_status::kCancelled, run_status::kIncomplete, run_status::kMissing}) {
    status_->addItem(s, s);
  }

  table_->setModel(proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->verticalHeader()->setVisible(false);
  QHeaderView* header = table_->horizontalHeader();
  header->setStretchLastSection(true);  // the directory takes what is left
  header->setSectionsMovable(true);
  const QByteArray state = QSettings().value(kHeaderKey).toByteArray();
  header_restored_ = !state.isEmpty() && header->restoreState(state);
  if (!header_restored_) header->setSortIndicator(RunsTableModel::kStarted, Qt::DescendingOrder);
  // Widths the user set are kept (and saved); until then the columns fit their contents.
  user_sized_ = header_restored_ && QSettings().value(kUserSizedKey, false).toBool();
  connect(header, &QHeaderView::sectionResized, this, [this] {
    // A drag on a column border; the layout's own resizes happen with no button held.
    if (!fitting_ && QGuiApplication::mouseButtons() != Qt::NoButton) user_sized_ = true;
  });
  table_->setSortingEnabled(true);  // sorts by the (restored) indicator

  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* top = new QHBoxLayout;
  top->addWidget(filter_, 1);
  top->addWidget(status_);
  auto* buttons = new QHBoxLayout;
  edit_->setToolTip(
      tr("Open the run's full config in the experiment editor, to run it again or "
         "change it"));
  for (QPushButton* b : {open_, edit_, compare_, add_, rescan_, remove_, fetch_})
    buttons->addWidget(b);
  buttons->addStretch(1);
  buttons->addWidget(message_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);
}

void RunsView::connectActions() {
  connect(filter_, &QLineEdit::textChanged, proxy_, &RunsFilterProxy::setFilterText);
  connect(status_, &QComboBox::currentIndexChanged, this,
          [this] { proxy_->setStatusFilter(status_->currentData().toString()); });
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    emit openRequested(index.data(RunsTableModel::kRunDirRole).toString());
  });
  connect(open_, &QPushButton::clicked, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() == 1) emit openRequested(dirs.front());
  });
  connect(edit_, &QPushButton::clicked, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() == 1) emit editConfigRequested(dirs.front());
  });
  generate_action_->setToolTip(tr("Open the run's checkpoint in the Generate tab (decoders)"));
  table_->addAction(generate_action_);
  connect(generate_action_, &QAction::triggered, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() == 1) emit generateRequested(dirs.front());
  });
  connect(compare_, &QPushButton::clicked, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() >= 2) emit compareRequested(dirs);
  });
  connect(add_, &QPushButton::clicked, this, &RunsView::chooseAndAddDirectory);
  if (worker_) {
    connect(worker_, &RunStoreWorker::loaded, this, [this](const QList<RunRecord>& records) {
      showRecords(records);
      emit refreshed();
    });
    connect(worker_, &RunStoreWorker::rescanned, this,
            [this](int changed, const QStringList& errors, const QList<RunRecord>& records) {
              showRecords(records);
              QString text = tr("Rescan: %n run(s) added or updated", nullptr, changed);
              if (!errors.isEmpty()) text += tr("; %n folder(s) skipped", nullptr, errors.size());
              message_->setText(text);
              message_->setToolTip(errors.join(QLatin1Char('\n')));
              emit rescanFinished(changed);
            });
    connect(worker_, &RunStoreWorker::directoryAdded, this,
            [this](const QString& dir, bool ok, const RunRecord& record, const QString& error) {
              if (ok) {
                model_->upsert(record);
                select({record.run_dir});
                fitColumns();
              }
              const bool asked = chosen_.remove(dir);  // by the Add button: answer with a box
              if (!ok && asked)
                QMessageBox::warning(this, tr("Add run directory"),
                                     tr("This folder cannot be added as a run.\n\n%1").arg(error));
              emit runDirectoryAdded(dir, ok ? QString() : error);
            });
  }
  connect(rescan_, &QPushButton::clicked, this, &RunsView::rescan);
  connect(remove_, &QPushButton::clicked, this, &RunsView::removeSelected);

  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &RunsView::updateButtons);
  // Resets and filtering drop selected rows without selectionChanged in some cases.
  connect(proxy_, &QAbstractItemModel::modelReset, this, &RunsView::updateButtons);
  connect(proxy_, &QAbstractItemModel::layoutChanged, this, &RunsView::updateButtons);
  connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &RunsView::updateButtons);
  connect(model_, &QAbstractItemModel::modelReset, this, &RunsView::updateAccuracyColumn);
  connect(model_, &QAbstractItemModel::rowsInserted, this, &RunsView::updateAccuracyColumn);
  connect(model_, &QAbstractItemModel::dataChanged, this, &RunsView::updateAccuracyColumn);
}

QStringList RunsView::selectedRunDirs() const {
  QModelIndexList rows = table_->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(),
            [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  QStringList dirs;
  for (const QModelIndex& index : rows) dirs << index.data(RunsTableModel::kRunDirRole).toString();
  return dirs;
}

void RunsView::refresh() {
  if (worker_) worker_->loadAll();
}

bool RunsView::isBusy() const {
  return worker_ && worker_->pending() > 0;
}

void RunsView::showRecords(const QList<RunRecord>& records) {
  const QStringList selected = selectedRunDirs();
  model_->setRecords(records);
  select(selected);
  fitColumns();
  updateButtons();
}

void RunsView::updateRun(const RunRecord& record) {
  if (record.status == run_status::kRunning) {
    live_dirs_.insert(record.run_dir);
  } else {
    live_dirs_.remove(record.run_dir);
  }
  if (worker_) worker_->upsert(record);
  model_->upsert(record);
  fitColumns();
}

void RunsView::addRunDirectory(const QString& dir) {
  if (worker_) {
    worker_->addDirectory(dir);
    return;
  }
  emit runDirectoryAdded(dir, tr("no run store"));
}

void RunsView::chooseAndAddDirectory() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Add run directory"), runs_root_);
  if (dir.isEmpty()) return;
  chosen_.insert(dir);
  addRunDirectory(dir);
}

void RunsView::rescan() {
  if (worker_) worker_->rescan(runs_root_, live_dirs_);
}

void RunsView::removeSelected() {
  for (const QString& dir : selectedRunDirs()) {
    if (worker_) worker_->remove(dir);
    model_->removeRun(dir);
    live_dirs_.remove(dir);
  }
  updateButtons();
}

void RunsView::updateButtons() {
  const qsizetype selected = table_->selectionModel()->selectedRows().size();
  open_->setEnabled(selected == 1);
  edit_->setEnabled(selected == 1);
  generate_action_->setEnabled(selected == 1);
  compare_->setEnabled(selected >= 2);
  remove_->setEnabled(selected >= 1);
  const bool remote = !selectedRemoteRunDirs().isEmpty();
  fetch_->setEnabled(remote);
  fetch_action_->setEnabled(remote);
  rescan_->setEnabled(worker_ != nullptr && !runs_root_.isEmpty());
}

void RunsView::updateAccuracyColumn() {
  table_->setColumnHidden(RunsTableModel::kAccuracyBest, !model_->anyAccuracy());
}

void RunsView::select(const QStringList& run_dirs) {
  QItemSelection selection;
  for (const QString& dir : run_dirs) {
    const int row = model_->rowOf(dir);
    if (row < 0) continue;
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (index.isValid()) selection.select(index, index);
  }
  table_->selectionModel()->select(selection,
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

// Until the user sizes a column: fit the columns to the runs shown, each at most kMaxFittedWidth.
void RunsView::fitColumns() {
  if (user_sized_ || model_->rowCount() == 0) return;
  fitting_ = true;
  table_->resizeColumnsToContents();
  QHeaderView* header = table_->horizontalHeader();
  for (int c = 0; c < header->count() - 1; ++c) {
    if (header->sectionSize(c) > kMaxFittedWidth) header->resizeSection(c, kMaxFittedWidth);
  }
  fitting_ = false;
}

}  // namespace moe::ui
