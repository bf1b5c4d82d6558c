#include "base/storage/whole_file.h"

namespace moe::ui {

bool commitWhole(QSaveFile& file, QString* why) {
  // The reason is read before cancelWriting(), which replaces it with its own.
  if (file.error() == QFileDevice::NoError && file.flush() && file.commit()) return true;
  if (why) *why = file.errorString();
  file.cancelWriting();
  return false;
}

bool saveWhole(const QString& path, const QByteArray& bytes, QString* why) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
    if (why) *why = file.errorString();
    return false;
  }
  return commitWhole(file, why);
}

}  // namespace moe::ui
