#include "base/experiment/hf_import.h"

#include <QDir>
#include <QFile>

#include "base/storage/worker_task.h"

namespace moe::ui {

namespace {

constexpr const char* kConfigName = "imported.json";

// What moe-train said last on a stream: its message is the last non-empty line.
QString lastLine(const QByteArray& text) {
  const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  return lines.isEmpty() ? QString() : lines.back().trimmed();
}

QString firstLine(const QByteArray& text) {
  const QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  return lines.isEmpty() ? QString() : lines.front().trimmed();
}

// `line` without `prefix`, when it starts with it ("import-hf: DIR: ", "moe-train: ").
QString after(const QString& line, const QString& prefix) {
  return line.startsWith(prefix) ? line.mid(prefix.size()) : line;
}

// The config import-hf wrote; a discarded json when it cannot be read (on a worker).
nlohmann::json readConfig(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
}

}  // namespace

HfImport::HfImport(QString program, QObject* parent)
    : QObject(parent), program_(std::move(program)) {}

HfImport::~HfImport() {
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(1000);
  }
}

bool HfImport::start(const QString& model_dir) {
  if (process_) return false;
  model_dir_ = QDir(model_dir).absolutePath();
  scratch_ = std::make_unique<QTemporaryDir>();
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments({QStringLiteral("import-hf"), model_dir_, QStringLiteral("--config-out"),
                          scratch_->filePath(QLatin1String(kConfigName))});
  process_->setStandardInputFile(QProcess::nullDevice());
  connect(process_, &QProcess::finished, this, &HfImport::onFinished);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;  // the others end in finished()
    fail(tr("Cannot start %1: %2").arg(program_, process_->errorString()), -1);
  });
  process_->start();
  return true;
}

void HfImport::fail(const QString& message, int exit_code) {
  HfImportResult result;
  result.model_dir = model_dir_;
  result.summary = message;
  result.exit_code = exit_code;
  if (process_) process_->deleteLater();
  process_ = nullptr;
  scratch_.reset();
  emit finished(result);
}

void HfImport::onFinished(int exit_code, QProcess::ExitStatus status) {
  const QByteArray out = process_->readAllStandardOutput();
  const QByteArray err = process_->readAllStandardError();
  if (status != QProcess::NormalExit || exit_code != 0) {
    const QString message = after(lastLine(err), QStringLiteral("moe-train: "));
    fail(
        message.isEmpty() ? tr("moe-train import-hf ended with status %1").arg(exit_code) : message,
        status == QProcess::NormalExit ? exit_code : -1);
    return;
  }
  process_->deleteLater();
  process_ = nullptr;
  const QString path = scratch_->filePath(QLatin1String(kConfigName));
  std::shared_ptr<QTemporaryDir> scratch(scratch_.release());  // kept until the file is read
  const QString model_dir = model_dir_;
  const QString summary = after(firstLine(out), QStringLiteral("import-hf: ") + model_dir + ": ");
  runOnWorker(
      this, [path, scratch] { return readConfig(path); },
      [this, summary, model_dir](const nlohmann::json& config) {
        HfImportResult result;
        result.model_dir = model_dir;
        result.exit_code = 0;
        result.ok = config.is_object();
        result.summary = result.ok ? summary : tr("import-hf wrote no readable config");
        if (result.ok) result.config = config;
        emit finished(result);
      });
}

}  // namespace moe::ui
