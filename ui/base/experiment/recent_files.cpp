#include "base/experiment/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace moe::ui {
namespace {
const char kKey[] = "experiment/recentFiles";
}  // namespace

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {}

QStringList RecentFiles::files() const {
  return QSettings().value(kKey).toStringList().mid(0, kMax);
}

void RecentFiles::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = files();
  list.removeAll(absolute);
  list.prepend(absolute);
  store(list.mid(0, kMax));
}

void RecentFiles::remove(const QString& path) {
  QStringList list = files();
  if (list.removeAll(QFileInfo(path).absoluteFilePath()) > 0) store(list);
}

void RecentFiles::clear() {
  store({});
}

void RecentFiles::store(const QStringList& files) {
  QSettings().setValue(kKey, files);
  emit changed();
}

}  // namespace moe::ui
