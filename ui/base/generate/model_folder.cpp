#include "base/generate/model_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

#include <optional>

#include "protocol/run_layout.h"

namespace moe::ui {

namespace layout = protocol::run_layout;

namespace {

QJsonObject readJsonObject(const QString& file) {
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

std::optional<int64_t> stepOf(const QString& dir) {
  return layout::parse_step_dir_name(QFileInfo(dir).fileName().toStdString());
}

// The newest complete checkpoint's name under <run>/checkpoints/ (as moe-train picks it).
QString latestCheckpoint(const QString& run_dir) {
  const QDir checkpoints(QDir(run_dir).filePath(QString::fromUtf8(layout::kCheckpoints)));
  QString best;
  int64_t best_step = -1;
  for (const QString& name : checkpoints.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    const auto step = layout::parse_step_dir_name(name.toStdString());
    if (step && *step > best_step &&
        QFileInfo::exists(checkpoints.filePath(name + "/" + layout::kCheckpointState))) {
      best_step = *step;
      best = name;
    }
  }
  return best;
}

ModelFolder invalid(const QString& path, const QString& why) {
  ModelFolder folder;
  folder.path = path;
  folder.error = why;
  return folder;
}

// A run's config.json: a decoder's, else the reason it cannot generate.
ModelFolder readRun(const QString& path, const QString& run_dir, const QString& step) {
  const QString config_file = QDir(run_dir).filePath(QString::fromUtf8(layout::kConfig));
  if (!QFileInfo::exists(config_file))
    return invalid(path, QObject::tr("%1 has no config.json").arg(run_dir));
  const QJsonObject config = readJsonObject(config_file);
  const QJsonObject model = config.value(QStringLiteral("model")).toObject();
  const QString kind = model.value(QStringLiteral("kind")).toString();
  if (kind != QLatin1String("decoder")) {
    return invalid(path, QObject::tr("%1 trains a model of kind \"%2\": only decoders "
                                     "(model.kind \"decoder\") generate text")
                             .arg(run_dir, kind.isEmpty() ? QObject::tr("unknown") : kind));
  }
  ModelFolder folder;
  folder.kind = path == run_dir ? ModelFolder::Kind::Run : ModelFolder::Kind::Checkpoint;
  folder.path = path;
  folder.has_tokenizer =
      QFileInfo::exists(QDir(run_dir).filePath(QStringLiteral("tokenizer.json")));
  folder.vocab = model.value(QStringLiteral("vocab")).toInt();
  const QString name = config.value(QStringLiteral("name")).toString();
  folder.summary = QObject::tr("run %1, checkpoint %2")
                       .arg(name.isEmpty() ? QFileInfo(run_dir).fileName() : name, step);
  return folder;
}

}  // namespace

ModelFolder inspectModelFolder(const QString& given) {
  const QString path = QFileInfo(given).absoluteFilePath();
  if (given.trimmed().isEmpty()) return invalid(given, QObject::tr("no model chosen"));
  if (!QFileInfo(path).isDir()) return invalid(path, QObject::tr("%1: not a folder").arg(path));

  const QJsonObject hf_config = readJsonObject(QDir(path).filePath(QStringLiteral("config.json")));
  if (hf_config.contains(QStringLiteral("model_type"))) {
    ModelFolder folder;
    folder.kind = ModelFolder::Kind::HuggingFace;
    folder.path = path;
    folder.has_tokenizer = QFileInfo::exists(QDir(path).filePath(QStringLiteral("tokenizer.json")));
    folder.vocab = hf_config.value(QStringLiteral("vocab_size")).toInt();
    folder.summary = QObject::tr("Hugging Face folder (%1)")
                         .arg(hf_config.value(QStringLiteral("model_type")).toString());
    return folder;
  }
  // A checkpoint step directory: <run>/checkpoints/step-<n>.
  const QFileInfo info(path);
  if (stepOf(path) && info.dir().dirName() == QLatin1String(layout::kCheckpoints)) {
    QDir run(info.dir());
    run.cdUp();
    return readRun(path, run.absolutePath(), info.fileName());
  }
  const QString step = latestCheckpoint(path);
  if (step.isEmpty()) {
    return invalid(path, QObject::tr("%1 is neither a Hugging Face folder (config.json with a "
                                     "model_type) nor a run directory with a checkpoint (runs "
                                     "keep one with train.checkpoint_every)")
                             .arg(path));
  }
  return readRun(path, path, step);
}

}  // namespace moe::ui
