#pragma once
// Writing the small files (configs, scripts) that the launch tests hand to a run.
#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace moe::test {

// Writes `bytes` to `name` in `dir` and returns its path; empty when the file cannot be opened.
inline QString writeTempFile(const QTemporaryDir& dir, const QString& name,
                             const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(bytes);
  return path;
}

}  // namespace moe::test
