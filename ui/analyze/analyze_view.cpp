#include "analyze/analyze_view.h"

#include <QBuffer>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QVBoxLayout>

#include "analyze/chart_view.h"
#include "base/report/analysis_charts.h"
#include "base/storage/whole_file.h"
#include "base/storage/worker_task.h"
#include "draw/chart_svg.h"

namespace moe::ui {

namespace {

constexpr size_t kViewTopTokens = 10;  // analyze lists ten per expert

// `widget` under a bold title.
QWidget* titled(const QString& title, QWidget* widget, QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), box);
  layout->addWidget(label);
  layout->addWidget(widget, 1);
  return box;
}

QTableWidget* makeTable(QWidget* parent) {
  auto* table = new QTableWidget(parent);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->verticalHeader()->hide();
  table->setWordWrap(false);
  return table;
}

void showTable(QTableWidget* table, const ReportTable& t) {
  table->clear();
  table->setColumnCount(static_cast<int>(t.header.size()));
  table->setRowCount(static_cast<int>(t.rows.size()));
  table->setHorizontalHeaderLabels(t.header);
  for (int r = 0; r < t.rows.size(); ++r) {
    for (int c = 0; c < t.rows[r].size(); ++c) {
      auto* item = new QTableWidgetItem(t.rows[r][c]);
      item->setTextAlignment(Qt::AlignVCenter |
                             (t.numeric_columns.contains(c) ? Qt::AlignRight : Qt::AlignLeft));
      table->setItem(r, c, item);
    }
  }
  table->resizeColumnsToContents();
  table->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace

AnalyzeView::AnalyzeView(QString path, QWidget* parent)
    : QWidget(parent), path_(QFileInfo(path).absoluteFilePath()) {
  buildLayout();
  status_->setText(tr("Reading %1…").arg(path_));
  const QString file = path_;
  struct Read {
    AnalysisReport report;
    QString error;
    bool ok = false;
  };
  runOnWorker(
      this,
      [file] {
        Read read;
        read.ok = readAnalysisReport(file, &read.report, &read.error);
        return read;
      },
      [this](const Read& read) {
        if (!read.ok) {
          status_->setText(read.error);
          status_->show();
          emit failed(read.error);
          return;
        }
        showReport(read.report);
        emit loaded();
      });
}

QString AnalyzeView::title() const {
  const QFileInfo info(path_);
  // <run>/analysis/analysis.json is named by its run.
  if (info.fileName() == QLatin1String("analysis.json") &&
      info.dir().dirName() == QLatin1String("analysis")) {
    QDir run = info.dir();
    run.cdUp();
    return run.dirName();
  }
  return info.fileName();
}

QString AnalyzeView::statusText() const {
  return status_->isHidden() ? QString() : status_->text();
}

void AnalyzeView::buildLayout() {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  header_ = new QLabel(this);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  header_->setWordWrap(true);
  top->addWidget(header_, 1);
  top->addWidget(new QLabel(tr("Layer:"), this));
  layer_box_ = new QComboBox(this);
  layer_box_->setMinimumContentsLength(10);
  top->addWidget(layer_box_);
  what_if_button_ = new QPushButton(tr("Open Capture in What-if"), this);
  what_if_button_->setToolTip(
      tr("Route this layer's captured tokens again under other settings (analyze --capture)"));
  what_if_button_->setEnabled(false);
  top->addWidget(what_if_button_);
  export_button_ = new QPushButton(tr("Export View…"), this);
  export_button_->setEnabled(false);
  top->addWidget(export_button_);
  layout->addLayout(top);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);

  load_chart_ = new ChartView(QStringLiteral("expert-load-share"), this);
  co_chart_ = new ChartView(QStringLiteral("co-selection"), this);
  dropped_chart_ = new ChartView(QStringLiteral("dropped-share"), this);
  balance_table_ = makeTable(this);
  tokens_table_ = makeTable(this);

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->addWidget(titled(tr("Expert load share, every layer"), load_chart_, charts));
  charts->addWidget(titled(tr("Co-selection of the layer"), co_chart_, charts));
  charts->addWidget(titled(tr("Dropped share against capacity factor"), dropped_chart_, charts));
  charts->setStretchFactor(0, 5);
  charts->setStretchFactor(1, 3);
  charts->setStretchFactor(2, 3);
  auto* tables = new QSplitter(Qt::Horizontal, this);
  tables->addWidget(titled(tr("Balance per layer"), balance_table_, tables));
  tables->addWidget(titled(tr("Top tokens of the layer's experts"), tokens_table_, tables));
  tables->setStretchFactor(0, 1);
  tables->setStretchFactor(1, 1);
  auto* body = new QSplitter(Qt::Vertical, this);
  body->addWidget(charts);
  body->addWidget(tables);
  body->setStretchFactor(0, 3);
  body->setStretchFactor(1, 2);
  layout->addWidget(body, 1);

  connect(layer_box_, &QComboBox::currentIndexChanged, this, [this] { showLayer(); });
  connect(balance_table_, &QTableWidget::cellClicked, this,
          [this](int row, int) { setLayerIndex(row); });
  connect(export_button_, &QPushButton::clicked, this, &AnalyzeView::chooseExport);
  connect(what_if_button_, &QPushButton::clicked, this, [this] {
    const int i = layerIndex();
    if (!report_ || i < 0) return;
    emit whatIfRequested(report_->captureFile(static_cast<size_t>(i)),
                         tr("%1 · layer %2").arg(title()).arg(report_->layers[i].layer));
  });
}

void AnalyzeView::showReport(AnalysisReport report) {
  report_ = std::move(report);
  const AnalysisReport& r = *report_;
  QStringList facts;
  if (!r.model.isEmpty()) facts << tr("model %1").arg(r.model.toHtmlEscaped());
  if (!r.data.isEmpty()) facts << tr("corpus %1").arg(r.data.toHtmlEscaped());
  facts << tr("%L1 tokens").arg(r.tokens);
  if (r.batch_size > 0) facts << tr("batches of %1 × %2").arg(r.batch_size).arg(r.seq_len);
  header_->setText(QStringLiteral("<b>%1</b><br>%2")
                       .arg(title().toHtmlEscaped(), facts.join(QStringLiteral(" · "))));
  status_->hide();
  load_chart_->setChart(loadShareMatrix(r));
  dropped_chart_->setChart(droppedShareCurves(r));
  showTable(balance_table_, ui::balanceTable(r));
  const QSignalBlocker block(layer_box_);
  layer_box_->clear();
  for (const auto& l : r.layers) layer_box_->addItem(tr("layer %1").arg(l.layer));
  export_button_->setEnabled(true);
  setLayerIndex(static_cast<int>(worstBalancedLayer(r)));
  showLayer();
}

int AnalyzeView::layerIndex() const {
  return report_ ? layer_box_->currentIndex() : -1;
}

void AnalyzeView::setLayerIndex(int index) {
  if (report_ && index >= 0 && index < layer_box_->count()) layer_box_->setCurrentIndex(index);
}

void AnalyzeView::showLayer() {
  const int i = layerIndex();
  if (i < 0) return;
  const AnalyzedLayer& l = report_->layers[static_cast<size_t>(i)];
  co_chart_->setChart(coSelectionMatrix(l));
  showTable(tokens_table_, ui::topTokensTable(l, kViewTopTokens));
  balance_table_->selectRow(i);
  const QString capture = report_->captureFile(static_cast<size_t>(i));
  what_if_button_->setEnabled(!capture.isEmpty());
  what_if_button_->setToolTip(capture.isEmpty()
                                  ? tr("No capture: run analyze with --capture DIR")
                                  : tr("Route %1 again under other settings").arg(capture));
}

bool AnalyzeView::exportView(const QString& path, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) {
    if (grab().save(path, "PNG")) return true;
    *error = tr("Cannot write %1").arg(path);
    return false;
  }
  if (suffix != QLatin1String("svg")) {
    *error = tr("%1: export as .png or .svg").arg(path);
    return false;
  }
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(size());
  svg.setViewBox(rect());
  svg.setTitle(title());
  QPainter painter(&svg);
  render(&painter);
  painter.end();
  return saveWhole(path, withFontFallbacks(buffer.data()), error);
}

void AnalyzeView::chooseExport() {
  const QString path = askExportPath(this, tr("Export Analyze View"), title());
  if (path.isEmpty()) return;
  QString error;
  if (!exportView(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace moe::ui
