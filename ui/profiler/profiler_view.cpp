#include "profiler/profiler_view.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "base/plot_data/readout_format.h"
#include "base/profiler/sweep_table_model.h"
#include "base/storage/whole_file.h"
#include "base/storage/worker_task.h"
#include "profiler/profiler_charts.h"
#include "profiler/sweep_form.h"
#include "widgets/plot_export.h"

namespace moe::ui {

namespace {

constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kMaxLogBlocks = 2000;  // stderr lines kept in the log view

bool writeSweepCsv(const QList<BenchResult>& results, const QString& path, QString* error) {
  QString why;
  if (saveWhole(path, sweepCsv(results).toUtf8(), &why)) return true;
  if (error) *error = path + QStringLiteral(": ") + why;
  return false;
}

QLabel* heading(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  QFont bold = label->font();
  bold.setBold(true);
  label->setFont(bold);
  return label;
}

}  // namespace

ProfilerView::ProfilerView(const QString& db_path, const QString& program, QWidget* parent)
    : QWidget(parent), program_(program) {
  process_ = new BenchProcess(this);
  store_ = new SweepStoreWorker(db_path, this);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(buildSetupSide());
  split->addWidget(buildResultsSide());
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  split->setSizes({400, 900});
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(split);

  connectProcess();
  connectHistory();
  setRunning(false);
  store_->loadAll();
}

// Left: the set-up, the progress and the history.
QWidget* ProfilerView::buildSetupSide() {
  auto* left = new QWidget(this);
  auto* side = new QVBoxLayout(left);
  side->addWidget(heading(tr("Sweep of moe-train bench"), left));
  form_ = new SweepForm(left);
  side->addWidget(form_);
  run_ = new QPushButton(tr("Run sweep"), left);
  cancel_ = new QPushButton(tr("Cancel"), left);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addStretch();
  side->addLayout(buttons);
  progress_ = new QProgressBar(left);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(tr("%v of %m configs"));
  side->addWidget(progress_);
  status_ = new QLabel(left);
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::PlainText);
  side->addWidget(status_);
  log_ = new QPlainTextEdit(left);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(kMaxLogBlocks);
  log_->setLineWrapMode(QPlainTextEdit::NoWrap);
  log_->setPlaceholderText(tr("moe-train bench's messages (stderr)"));
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  mono.setPointSizeF(font().pointSizeF() * 0.85);
  log_->setFont(mono);
  log_->setMaximumHeight(110);
  side->addWidget(log_);
  side->addWidget(heading(tr("Past sweeps"), left));
  history_ = new QListWidget(left);
  history_->setToolTip(tr("Tick two or more to compare; double-click to show one"));
  side->addWidget(history_, 1);
  show_ = new QPushButton(tr("Show"), left);
  compare_ = new QPushButton(tr("Compare ticked"), left);
  export_ = new QPushButton(tr("Export CSV…"), left);
  delete_ = new QPushButton(tr("Delete"), left);
  auto* history_buttons = new QHBoxLayout;
  for (QPushButton* b : {show_, compare_, export_, delete_}) history_buttons->addWidget(b);
  side->addLayout(history_buttons);
  export_charts_ = new QPushButton(tr("Export charts…"), left);
  export_charts_->setToolTip(
      tr("The four charts shown, as PNG, SVG or PDF (each chart's context "
         "menu exports it alone)"));
  auto* chart_buttons = new QHBoxLayout;
  chart_buttons->addStretch();
  chart_buttons->addWidget(export_charts_);
  side->addLayout(chart_buttons);
  return left;
}

// Right: the table above the charts.
QWidget* ProfilerView::buildResultsSide() {
  model_ = new SweepTableModel(this);
  sorted_ = new QSortFilterProxyModel(this);
  sorted_->setSourceModel(model_);
  sorted_->setSortRole(SweepTableModel::kSortRole);
  table_ = new QTableView(this);
  table_->setModel(sorted_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(SweepTableModel::Index, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  charts_ = new ProfilerCharts(this);
  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(table_);
  right->addWidget(charts_);
  right->setStretchFactor(0, 1);
  right->setStretchFactor(1, 3);
  return right;
}

// The form's buttons and the bench process: progress, results config by config, the end.
void ProfilerView::connectProcess() {
  connect(run_, &QPushButton::clicked, this, &ProfilerView::run);
  connect(cancel_, &QPushButton::clicked, this, &ProfilerView::cancel);
  connect(form_, &SweepForm::changed, this, &ProfilerView::updateButtons);
  connect(process_, &BenchProcess::started, this, [this](int configs) {
    progress_->setRange(0, std::max(configs, 1));
    status_->setText(tr("Measuring %1…").arg(configsText(configs)));
  });
  connect(process_, &BenchProcess::configFinished, this, [this](const BenchResult& result) {
    model_->append(result);
    current_.results << result;
    charts_->setSweeps({{tr("this sweep"), current_.results}});
  });
  connect(process_, &BenchProcess::progress, this, &ProfilerView::onProgress);
  connect(process_, &BenchProcess::log, this, [this](const QString& text) {
    log_->moveCursor(QTextCursor::End);
    log_->insertPlainText(text);
    log_->moveCursor(QTextCursor::End);
  });
  connect(process_, &BenchProcess::finished, this, &ProfilerView::onFinished);
}

// The past sweeps: the store's answers, the list and its buttons.
void ProfilerView::connectHistory() {
  connect(store_, &SweepStoreWorker::loaded, this,
          [this](const QList<SweepRecord>& records, const QString& error) {
            if (!error.isEmpty()) status_->setText(tr("Past sweeps cannot be read: %1").arg(error));
            refreshHistory(records);
          });
  connect(store_, &SweepStoreWorker::inserted, this, [this](qint64 id, const QString& error) {
    if (id == 0) status_->setText(status_->text() + tr("\nNot stored: %1").arg(error));
    current_.id = id;
    store_->loadAll();
    emit sweepStored(id);
  });
  connect(store_, &SweepStoreWorker::removed, this, [this] { store_->loadAll(); });
  connect(history_, &QListWidget::itemDoubleClicked, this,
          [this](QListWidgetItem* item) { showSweep(item->data(kIdRole).toLongLong()); });
  connect(history_, &QListWidget::itemChanged, this, &ProfilerView::updateButtons);
  connect(history_, &QListWidget::currentRowChanged, this, &ProfilerView::updateButtons);
  connect(show_, &QPushButton::clicked, this, [this] {
    if (QListWidgetItem* item = history_->currentItem()) {
      showSweep(item->data(kIdRole).toLongLong());
    }
  });
  connect(compare_, &QPushButton::clicked, this, [this] { compareSweeps(checkedIds()); });
  connect(export_, &QPushButton::clicked, this, &ProfilerView::chooseCsvPath);
  connect(export_charts_, &QPushButton::clicked, this, &ProfilerView::chooseChartsPath);
  connect(delete_, &QPushButton::clicked, this, [this] {
    if (QListWidgetItem* item = history_->currentItem()) {
      store_->remove(item->data(kIdRole).toLongLong());
    }
  });
}

bool ProfilerView::run() {
  if (process_->isRunning()) return false;
  if (!form_->isValid()) {
    status_->setText(tr("The sweep cannot run: %1").arg(form_->problems().join(QLatin1Char('\n'))));
    return false;
  }
  current_ = SweepRecord{};
  current_.started_at = QDateTime::currentDateTimeUtc();
  current_.spec = form_->spec();
  model_->clear();
  charts_->setSweeps({});
  log_->clear();
  progress_->setRange(0, 0);  // busy until the engine says how many configs
  status_->setStyleSheet(QString());
  status_->setText(tr("Starting moe-train bench…"));
  process_->start(program_, benchArguments(current_.spec));
  current_.program = process_->program();
  setRunning(process_->isRunning());  // a program that cannot start has ended already
  return true;
}

void ProfilerView::cancel() {
  if (!process_->isRunning()) return;
  status_->setText(tr("Cancelling…"));
  process_->cancel();
}

void ProfilerView::onProgress(int done, int of, double eta_s) {
  progress_->setRange(0, std::max(of, 1));
  progress_->setValue(done);
  QString text = tr("%1 of %2 configs measured").arg(done).arg(of);
  if (eta_s >= 0 && done < of) text += tr(" · about %1 left").arg(durationText(eta_s));
  status_->setText(text);
}

void ProfilerView::onFinished(BenchProcess::Outcome outcome, const QString& message) {
  setRunning(false);
  current_.seconds = current_.started_at.msecsTo(QDateTime::currentDateTimeUtc()) / 1000.0;
  current_.message = message;
  switch (outcome) {
    case BenchProcess::Outcome::Finished:
      current_.status = QStringLiteral("finished");
      progress_->setValue(progress_->maximum());
      status_->setText(
          tr("Done: %1 in %2")
              .arg(configsText(current_.results.size()), durationText(current_.seconds)));
      break;
    case BenchProcess::Outcome::Cancelled:
      current_.status = QStringLiteral("cancelled");
      status_->setText(tr("Cancelled: %1").arg(message));
      break;
    case BenchProcess::Outcome::Failed:
      current_.status = QStringLiteral("failed");
      if (progress_->maximum() == 0) progress_->setRange(0, 1);
      status_->setStyleSheet(QStringLiteral("color: #b00020;"));
      status_->setText(tr("Failed: %1").arg(message));
      break;
  }
  // A sweep with figures is kept, also a cancelled or failed one (its status says so).
  if (!current_.results.isEmpty()) {
    store_->insert(current_);
  } else {
    emit sweepStored(0);
  }
}

void ProfilerView::setRunning(bool running) {
  cancel_->setEnabled(running);
  form_->setEnabled(!running);
  updateButtons();
}

void ProfilerView::updateButtons() {
  const bool running = process_->isRunning();
  run_->setEnabled(!running && form_->isValid());
  // Rich text, escaped: a value typed as "<b>" must show as typed, not as markup.
  run_->setToolTip(form_->isValid()
                       ? tr("Start moe-train bench with this sweep")
                       : QStringLiteral("<p style='white-space:pre'>%1</p>")
                             .arg(form_->problems().join(QLatin1Char('\n')).toHtmlEscaped()));
  show_->setEnabled(history_->currentItem() != nullptr);
  delete_->setEnabled(history_->currentItem() != nullptr && !running);
  compare_->setEnabled(checkedIds().size() >= 2);
  export_->setEnabled(model_->rowCount() > 0);
  export_charts_->setEnabled(!charts_->configLabels().isEmpty());
}

void ProfilerView::refreshHistory(const QList<SweepRecord>& records) {
  const QList<qint64> checked = checkedIds();
  records_ = records;
  const QSignalBlocker block(history_);
  history_->clear();
  for (const SweepRecord& r : records_) {
    auto* item = new QListWidgetItem(r.title(), history_);
    item->setData(kIdRole, r.id);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked.contains(r.id) ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(
        QStringLiteral("<p>%1</p>").arg(tr("Measured by %1").arg(r.program).toHtmlEscaped()));
  }
  // The newest finished sweep says how long a config takes beyond its timed measurements.
  for (const SweepRecord& r : records_) {
    if (r.status != QLatin1String("finished") || r.results.isEmpty()) continue;
    QList<double> seconds;
    for (const BenchResult& b : r.results) seconds << b.seconds;
    form_->setMeasuredOverhead(sweepOverheadSeconds(r.spec, seconds));
    break;
  }
  updateButtons();
  emit historyLoaded();
}

QList<qint64> ProfilerView::checkedIds() const {
  QList<qint64> ids;
  for (int i = 0; i < history_->count(); ++i) {
    if (history_->item(i)->checkState() == Qt::Checked) {
      ids << history_->item(i)->data(kIdRole).toLongLong();
    }
  }
  return ids;
}

const SweepRecord* ProfilerView::record(qint64 id) const {
  for (const SweepRecord& r : records_) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

bool ProfilerView::showSweep(qint64 id) {
  const SweepRecord* r = record(id);
  if (!r || process_->isRunning()) return false;
  model_->setResults(r->results);
  charts_->setSweeps({{r->title(), r->results}});
  form_->setSpec(r->spec);  // ready to run again
  status_->setStyleSheet(QString());
  status_->setText(tr("Showing the sweep of %1").arg(r->title()));
  updateButtons();
  return true;
}

bool ProfilerView::compareSweeps(const QList<qint64>& ids) {
  QList<const SweepRecord*> compared;
  for (qint64 id : ids) {
    if (const SweepRecord* r = record(id)) compared << r;
  }
  // Each sweep is named by its id and the settings in which the compared sweeps differ.
  QList<ChartSweep> sweeps;
  for (const SweepRecord* r : compared) {
    QStringList differences;
    for (const SweepKey& k : r->spec.keys) {
      bool differs = false;
      for (const SweepRecord* other : compared) {
        const SweepKey* theirs = other->spec.find(k.key);
        differs = differs || !theirs || theirs->values != k.values;
      }
      if (differs) differences << k.label + QLatin1Char('=') + k.values.join(QLatin1Char(','));
    }
    if (r->spec.paired != compared.front()->spec.paired) {
      differences << (r->spec.paired ? tr("paired") : tr("grid"));
    }
    sweeps << ChartSweep{QStringLiteral("#%1 ").arg(r->id) + differences.join(QStringLiteral(", ")),
                         r->results};
  }
  if (sweeps.size() < 2 || process_->isRunning()) return false;
  model_->setResults(sweeps.front().results);
  charts_->setSweeps(sweeps);
  status_->setStyleSheet(QString());
  status_->setText(
      tr("Comparing %1 sweeps by config; the table shows the first").arg(sweeps.size()));
  updateButtons();
  return true;
}

bool ProfilerView::exportCsv(const QString& path, QString* error) const {
  return writeSweepCsv(model_->results(), path, error);
}

bool ProfilerView::exportCharts(const QString& path, QString* error) const {
  PlotFormat format;
  if (!plotFormatForPath(path, &format) || format == PlotFormat::Csv) {
    if (error) *error = path + tr(": give a .png, .svg or .pdf file name");
    return false;
  }
  const QFileInfo info(path);
  const QString base = info.dir().filePath(info.completeBaseName());
  const QString suffix = QLatin1Char('.') + info.suffix();
  const QList<QPair<QCustomPlot*, QString>> charts{
      {charts_->tokensPlot(), QStringLiteral("tokens")},
      {charts_->tflopsPlot(), QStringLiteral("tflops")},
      {charts_->efficiencyPlot(), QStringLiteral("efficiency")},
      {charts_->phasesPlot(), QStringLiteral("phases")}};
  for (const auto& [plot, name] : charts) {
    if (!exportPlot(plot, base + QLatin1Char('-') + name + suffix, error)) return false;
  }
  return true;
}

void ProfilerView::chooseChartsPath() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export the charts"), QStringLiteral("sweep.png"),
      tr("PNG images (*.png);;SVG drawings (*.svg);;PDF documents (*.pdf)"));
  if (path.isEmpty()) return;
  QString error;
  status_->setText(
      exportCharts(path, &error)
          ? tr("Wrote the four charts beside %1 (-tokens, -tflops, -efficiency, -phases)").arg(path)
          : tr("Not written: %1").arg(error));
}

void ProfilerView::chooseCsvPath() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export sweep as CSV"), QStringLiteral("sweep.csv"), tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  // The file is written on a worker (the table's rows are copied).
  runOnWorker(
      this,
      [results = model_->results(), path] {
        QString error;
        writeSweepCsv(results, path, &error);
        return error;
      },
      [this, path](const QString& error) {
        status_->setText(error.isEmpty() ? tr("Wrote %1").arg(path)
                                         : tr("Not written: %1").arg(error));
      });
}

}  // namespace moe::ui
