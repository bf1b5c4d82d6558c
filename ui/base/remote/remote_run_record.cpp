#include "base/remote/remote_run_record.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <algorithm>

#include "base/storage/whole_file.h"

namespace moe::ui {

bool RemoteRunRecord::isActive() const {
  return state == QLatin1String("starting") || state == QLatin1String("running") ||
         state == QLatin1String("not started");
}

QJsonObject RemoteRunRecord::toJson() const {
  return QJsonObject{{"target", target.toJson()},
                     {"run_id", run_id},
                     {"name", name},
                     {"remote_dir", remote_dir},
                     {"job_id", job_id},
                     {"nproc", nproc},
                     {"submitted_at", submitted_at.toString(Qt::ISODate)},
                     {"state", state},
                     {"error", error},
                     {"exit_code", exit_code},
                     {"fetched", fetched}};
}

RemoteRunRecord RemoteRunRecord::fromJson(const QJsonObject& json) {
  RemoteRunRecord r;
  r.target = Target::fromJson(json.value("target").toObject());
  r.run_id = json.value("run_id").toString();
  r.name = json.value("name").toString();
  r.remote_dir = json.value("remote_dir").toString();
  r.job_id = json.value("job_id").toString();
  r.nproc = std::max(1, json.value("nproc").toInt(1));
  r.submitted_at = QDateTime::fromString(json.value("submitted_at").toString(), Qt::ISODate);
  r.state = json.value("state").toString();
  r.error = json.value("error").toString();
  r.exit_code = json.value("exit_code").toInt(-1);
  r.fetched = json.value("fetched").toBool();
  return r;
}

std::optional<RemoteRunRecord> RemoteRunRecord::read(const QString& local_dir, QString* error) {
  QFile file(QDir(local_dir).filePath(kFileName));
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
    return std::nullopt;
  }
  QJsonParseError parse;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
  if (!doc.isObject()) {
    if (error)
      *error = QStringLiteral("%1: not a remote run record (%2)")
                   .arg(file.fileName(), parse.errorString());
    return std::nullopt;
  }
  return fromJson(doc.object());
}

bool RemoteRunRecord::write(const QString& local_dir, QString* error) const {
  const QString path = QDir(local_dir).filePath(kFileName);
  QString why;
  if (saveWhole(path, QJsonDocument(toJson()).toJson(), &why)) return true;
  if (error) *error = QStringLiteral("%1: %2").arg(path, why);
  return false;
}

QStringList activeRemoteRunDirs(const QString& runs_root) {
  QStringList dirs;
  const QDir root(runs_root);
  for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    const QString dir = root.filePath(name);
    if (!QFile::exists(QDir(dir).filePath(RemoteRunRecord::kFileName))) continue;
    const std::optional<RemoteRunRecord> record = RemoteRunRecord::read(dir);
    if (record && record->isActive()) dirs << dir;
  }
  return dirs;
}

}  // namespace moe::ui
