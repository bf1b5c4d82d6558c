#include "base/analyze/analyze_job.h"

#include <QDir>
#include <QRegularExpression>

#include "base/storage/worker_task.h"

namespace moe::ui {

namespace {

// The run directory of a checkpoint's step directory (<run>/checkpoints/step-N); else `model`.
QString runOf(const QString& model) {
  QDir dir(model);
  if (dir.dirName().startsWith(QLatin1String("step-")) && dir.cdUp() &&
      dir.dirName() == QLatin1String("checkpoints") && dir.cdUp())
    return dir.path();
  return model;
}

}  // namespace

AnalyzeJob::AnalyzeJob(QString program, QObject* parent)
    : QObject(parent), program_(std::move(program)) {}

AnalyzeJob::~AnalyzeJob() {
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(1000);
  }
}

QStringList analyzeArguments(const AnalyzeRequest& r) {
  QStringList args{QStringLiteral("analyze"), QStringLiteral("--model"), r.model,
                   QStringLiteral("--data"), r.data};
  if (r.tokens > 0) args << QStringLiteral("--tokens") << QString::number(r.tokens);
  if (!r.capacity_factors.isEmpty()) {
    QStringList factors;
    for (double f : r.capacity_factors) factors << QString::number(f, 'g', 10);
    args << QStringLiteral("--capacity-factors") << factors.join(QLatin1Char(','));
  }
  if (!r.out.isEmpty()) args << QStringLiteral("--out") << r.out;
  if (!r.capture_dir.isEmpty()) args << QStringLiteral("--capture") << r.capture_dir;
  return args;
}

bool parseAnalyzeProgress(const QString& line, int* batch, int* batches) {
  static const QRegularExpression kProgress(QStringLiteral("^analyze: batch (\\d+)/(\\d+)"));
  const auto m = kProgress.match(line);
  if (!m.hasMatch()) return false;
  *batch = m.captured(1).toInt();
  *batches = m.captured(2).toInt();
  return *batches > 0;
}

double analyzeEta(int done, int total, double elapsed_s) {
  if (done <= 0 || total < done || elapsed_s < 0) return -1;
  return elapsed_s / done * (total - done);
}

bool AnalyzeJob::start(const AnalyzeRequest& request) {
  if (process_ || request.model.isEmpty() || request.data.isEmpty()) return false;
  // The report is read back from where analyze wrote it: --out, else the run's own file.
  out_ = request.out.isEmpty() ? runAnalysisPath(runOf(request.model)) : request.out;
  stderr_.clear();
  last_line_.clear();
  cancelled_ = false;
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments(analyzeArguments(request));
  process_->setStandardInputFile(QProcess::nullDevice());
  connect(process_, &QProcess::readyReadStandardError, this, &AnalyzeJob::readProgress);
  connect(process_, &QProcess::finished, this, &AnalyzeJob::onFinished);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;  // the others end in finished()
    fail(tr("Cannot start %1: %2").arg(program_, process_->errorString()), -1);
  });
  clock_.start();
  process_->start();
  return true;
}

void AnalyzeJob::cancel() {
  if (!process_) return;
  cancelled_ = true;
  process_->terminate();
}

// The progress line is rewritten in place with '\r'; every other line ends with '\n'.
void AnalyzeJob::readProgress() {
  stderr_ += process_->readAllStandardError();
  qsizetype start = 0;
  for (qsizetype i = 0; i < stderr_.size(); ++i) {
    if (stderr_[i] != '\r' && stderr_[i] != '\n') continue;
    const QString line = QString::fromUtf8(stderr_.mid(start, i - start)).trimmed();
    start = i + 1;
    if (line.isEmpty()) continue;
    last_line_ = line;
    int batch = 0, batches = 0;
    if (parseAnalyzeProgress(line, &batch, &batches))
      emit progress(batch, batches, analyzeEta(batch, batches, clock_.elapsed() / 1000.0));
  }
  stderr_.remove(0, start);
}

void AnalyzeJob::fail(const QString& message, int exit_code) {
  AnalyzeJobResult result;
  result.message = message;
  result.exit_code = exit_code;
  result.report_path = out_;
  if (process_) process_->deleteLater();
  process_ = nullptr;
  emit finished(result);
}

void AnalyzeJob::onFinished(int exit_code, QProcess::ExitStatus status) {
  readProgress();
  const QString tail = QString::fromUtf8(stderr_).trimmed();
  if (!tail.isEmpty()) last_line_ = tail.split(QLatin1Char('\n')).back().trimmed();
  if (cancelled_) return fail(tr("Cancelled"), -1);
  if (status != QProcess::NormalExit || exit_code != 0) {
    QString message = last_line_;
    if (message.startsWith(QLatin1String("moe-train: "))) message = message.mid(11);
    return fail(
        message.isEmpty() ? tr("moe-train analyze ended with status %1").arg(exit_code) : message,
        status == QProcess::NormalExit ? exit_code : -1);
  }
  process_->deleteLater();
  process_ = nullptr;
  const QString path = out_;
  runOnWorker(
      this,
      [path] {
        AnalyzeJobResult result;
        result.exit_code = 0;
        result.report_path = path;
        result.ok = readAnalysisReport(path, &result.report, &result.message);
        return result;
      },
      [this](const AnalyzeJobResult& result) { emit finished(result); });
}

}  // namespace moe::ui
