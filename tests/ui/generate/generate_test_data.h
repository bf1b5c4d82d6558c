// The Generate tests' files: the recorded generation of data/ and files they write.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QtGlobal>

namespace moe::ui::test {

// Two prompts decoded together, 6 tokens each over 3 MoE layers of 8 experts (top-2), with an
// unreadable line and a line of an unknown type among them.
inline QByteArray recordedGeneration() {
  QFile file(QStringLiteral(MOE_TEST_DATA_DIR "/two_prompts.jsonl"));
  if (!file.open(QIODevice::ReadOnly)) qFatal("no recorded generation");
  return file.readAll();
}

inline bool writeFile(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

}  // namespace moe::ui::test
