// Copying and moving fetched run files (fetch_files.h).
#include "base/remote/fetch_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace moe::ui::fetch_files {

namespace {

constexpr QDir::Filters kEverything =
    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;

bool removeEntry(const QFileInfo& info) {
  if (info.isDir() && !info.isSymLink()) return QDir(info.filePath()).removeRecursively();
  return QFile::remove(info.filePath());
}

}  // namespace

QString copyTree(const QString& from, const QString& to) {
  if (!QDir().mkpath(to)) return QStringLiteral("%1: cannot create the directory").arg(to);
  for (const QFileInfo& entry : QDir(from).entryInfoList(kEverything)) {
    const QString target = QDir(to).filePath(entry.fileName());
    if (entry.isDir() && !entry.isSymLink()) {
      const QString error = copyTree(entry.filePath(), target);
      if (!error.isEmpty()) return error;
      continue;
    }
    QFile file(entry.filePath());
    if (!file.copy(target))
      return QStringLiteral("%1: cannot copy to %2 (%3)")
          .arg(entry.filePath(), target, file.errorString());
  }
  return {};
}

QString moveInto(const QString& from, const QString& into, const QStringList& keep) {
  if (!QDir().mkpath(into)) return QStringLiteral("%1: cannot create the directory").arg(into);
  for (const QFileInfo& entry : QDir(from).entryInfoList(kEverything)) {
    if (keep.contains(entry.fileName())) continue;
    const QFileInfo old(QDir(into).filePath(entry.fileName()));
    if ((old.exists() || old.isSymLink()) && !removeEntry(old))
      return QStringLiteral("%1: cannot replace it").arg(old.filePath());
    if (!QDir().rename(entry.filePath(), old.filePath()))
      return QStringLiteral("%1: cannot move it to %2").arg(entry.filePath(), old.filePath());
  }
  return {};
}

QString onlySubdirectory(const QString& dir, QString* error) {
  const QFileInfoList subs = QDir(dir).entryInfoList(kEverything);
  if (subs.size() == 1 && subs.front().isDir()) return subs.front().filePath();
  if (error) *error = QStringLiteral("%1: the copy did not arrive as one directory").arg(dir);
  return {};
}

}  // namespace moe::ui::fetch_files
