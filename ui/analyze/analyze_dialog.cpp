#include "analyze/analyze_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "base/analyze/analyze_job.h"

namespace moe::ui {

namespace {

// "about 12 s left", "about 3 min left".
QString etaText(double seconds) {
  if (seconds < 0) return {};
  if (seconds < 90) return QObject::tr("about %1 s left").arg(std::lround(seconds));
  return QObject::tr("about %1 min left").arg(std::lround(seconds / 60));
}

// A line edit with a browse button after it.
QWidget* withButton(QLineEdit* edit, QPushButton* button, QWidget* parent) {
  auto* row = new QWidget(parent);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit, 1);
  layout->addWidget(button);
  return row;
}

}  // namespace

AnalyzeDialog::AnalyzeDialog(const QString& program, QString analyses_dir, QWidget* parent)
    : QDialog(parent), analyses_dir_(std::move(analyses_dir)), job_(new AnalyzeJob(program, this)) {
  setWindowTitle(tr("Analyze Routing"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("Runs a corpus through a model without training and counts how "
                              "each MoE layer routes it (moe-train analyze)."),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* form = new QFormLayout;
  model_ = new QLineEdit(this);
  model_->setPlaceholderText(tr("a run directory, checkpoint or Hugging Face folder"));
  auto* model_button = new QPushButton(tr("Browse…"), this);
  form->addRow(tr("Model:"), withButton(model_, model_button, this));
  corpus_ = new QLineEdit(this);
  corpus_->setPlaceholderText(tr("text, JSON Lines or a Megatron prefix"));
  auto* corpus_button = new QPushButton(tr("Browse…"), this);
  form->addRow(tr("Corpus:"), withButton(corpus_, corpus_button, this));
  tokens_ = new QSpinBox(this);
  tokens_->setRange(0, 1'000'000'000);
  tokens_->setSingleStep(10'000);
  tokens_->setValue(100'000);
  tokens_->setSpecialValueText(tr("one pass over the corpus"));
  tokens_->setGroupSeparatorShown(true);
  form->addRow(tr("Tokens:"), tokens_);
  factors_ = new QLineEdit(QStringLiteral("1, 1.25, 1.5, 2"), this);
  factors_->setToolTip(tr("The capacity factors whose dropped share is counted"));
  form->addRow(tr("Capacity factors:"), factors_);
  output_ = new QLineEdit(this);
  output_->setPlaceholderText(tr("default: <run>/analysis/analysis.json"));
  form->addRow(tr("Report file:"), output_);
  capture_ = new QCheckBox(tr("Capture each layer's first batch for the What-if view"), this);
  capture_->setChecked(true);
  form->addRow(QString(), capture_);
  layout->addLayout(form);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  layout->addWidget(progress_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  buttons_->addButton(tr("Analyze"), QDialogButtonBox::AcceptRole);
  layout->addWidget(buttons_);
  resize(620, sizeHint().height());

  connect(model_button, &QPushButton::clicked, this, &AnalyzeDialog::chooseModel);
  connect(corpus_button, &QPushButton::clicked, this, &AnalyzeDialog::chooseCorpus);
  connect(model_, &QLineEdit::textChanged, this, [this](const QString& model) {
    output_->setPlaceholderText(model.isEmpty() ? QString() : defaultOutput(model));
  });
  connect(buttons_, &QDialogButtonBox::accepted, this, &AnalyzeDialog::start);
  connect(buttons_, &QDialogButtonBox::rejected, this, &AnalyzeDialog::reject);
  connect(job_, &AnalyzeJob::progress, this, [this](int batch, int batches, double eta_s) {
    progress_->setRange(0, batches);
    progress_->setValue(batch);
    status_->setText(tr("Batch %1 of %2   %3").arg(batch).arg(batches).arg(etaText(eta_s)));
  });
  connect(job_, &AnalyzeJob::finished, this, &AnalyzeDialog::finished);
}

void AnalyzeDialog::setModel(const QString& model) {
  model_->setText(model);
}
void AnalyzeDialog::setCorpus(const QString& corpus) {
  corpus_->setText(corpus);
}
void AnalyzeDialog::setTokens(int tokens) {
  tokens_->setValue(tokens);
}
void AnalyzeDialog::setCapacityFactors(const QString& factors) {
  factors_->setText(factors);
}
void AnalyzeDialog::setCapture(bool capture) {
  capture_->setChecked(capture);
}

QString AnalyzeDialog::statusText() const {
  return status_->text();
}

int AnalyzeDialog::progressValue() const {
  return progress_->value();
}

QString AnalyzeDialog::defaultOutput(const QString& model) const {
  QDir dir(model);
  if (dir.dirName().startsWith(QLatin1String("step-")) && dir.cdUp() &&
      dir.dirName() == QLatin1String("checkpoints") && dir.cdUp())
    return runAnalysisPath(dir.path());
  if (QFileInfo(QDir(model).filePath(QStringLiteral("checkpoints"))).isDir())
    return runAnalysisPath(model);
  return QDir(analyses_dir_).filePath(QDir(model).dirName() + QStringLiteral(".json"));
}

bool AnalyzeDialog::request(AnalyzeRequest* out, QString* error) const {
  AnalyzeRequest r;
  r.model = model_->text().trimmed();
  r.data = corpus_->text().trimmed();
  if (r.model.isEmpty() || !QFileInfo(r.model).isDir()) {
    *error = tr("Model: choose a run directory or model folder");
    return false;
  }
  if (r.data.isEmpty()) {
    *error = tr("Corpus: choose a text file, JSON Lines file or folder");
    return false;
  }
  r.tokens = tokens_->value();
  for (const QString& part : factors_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool ok = false;
    const double f = part.trimmed().toDouble(&ok);
    if (!ok || !(f > 0) || !std::isfinite(f)) {
      *error = tr("Capacity factors: '%1' is not a number above 0").arg(part.trimmed());
      return false;
    }
    r.capacity_factors << f;
  }
  r.out = output_->text().trimmed().isEmpty() ? defaultOutput(r.model) : output_->text().trimmed();
  if (capture_->isChecked()) {
    const QFileInfo report(r.out);
    const QString name = report.completeBaseName() == QLatin1String("analysis")
                             ? QStringLiteral("capture")
                             : report.completeBaseName() + QStringLiteral("-capture");
    r.capture_dir = report.dir().filePath(name);
  }
  *out = r;
  return true;
}

bool AnalyzeDialog::start() {
  AnalyzeRequest r;
  QString error;
  if (!request(&r, &error)) {
    status_->setText(error);
    return false;
  }
  // The report's folder (analyze makes a run's analysis/ itself, not another one).
  QDir().mkpath(QFileInfo(r.out).absolutePath());
  if (!job_->start(r)) {
    status_->setText(tr("An analysis is running already"));
    return false;
  }
  progress_->setRange(0, 0);  // busy until the first batch
  status_->setText(tr("Reading the model and the corpus…"));
  setRunning(true);
  return true;
}

void AnalyzeDialog::finished(const AnalyzeJobResult& result) {
  setRunning(false);
  progress_->setRange(0, 1);
  progress_->setValue(result.ok ? 1 : 0);
  if (!result.ok) {
    status_->setText(result.message);
    return;
  }
  status_->setText(tr("Wrote %1").arg(result.report_path));
  emit analysisReady(result.report_path);
  accept();
}

void AnalyzeDialog::setRunning(bool running) {
  for (QWidget* w : {static_cast<QWidget*>(model_), static_cast<QWidget*>(corpus_),
                     static_cast<QWidget*>(tokens_), static_cast<QWidget*>(factors_),
                     static_cast<QWidget*>(output_), static_cast<QWidget*>(capture_)})
    w->setEnabled(!running);
  for (QAbstractButton* b : buttons_->buttons())
    if (buttons_->buttonRole(b) == QDialogButtonBox::AcceptRole) b->setEnabled(!running);
}

// Cancel stops a running analysis first; a second Cancel closes.
void AnalyzeDialog::reject() {
  if (job_->isRunning()) {
    job_->cancel();
    return;
  }
  QDialog::reject();
}

void AnalyzeDialog::chooseModel() {
  QSettings settings;
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Model to Analyze"), settings.value(QStringLiteral("analyze/model_dir")).toString());
  if (dir.isEmpty()) return;
  settings.setValue(QStringLiteral("analyze/model_dir"), QFileInfo(dir).path());
  model_->setText(dir);
}

void AnalyzeDialog::chooseCorpus() {
  QSettings settings;
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Corpus"), settings.value(QStringLiteral("analyze/corpus_dir")).toString(),
      tr("Text or JSON Lines (*.txt *.jsonl *.json *.bin);;All files (*)"));
  if (file.isEmpty()) return;
  settings.setValue(QStringLiteral("analyze/corpus_dir"), QFileInfo(file).path());
  corpus_->setText(file);
}

}  // namespace moe::ui
