#pragma once
// The real moe-train from a UI test (MOE_TRAIN_BIN, the build's own), run to its end.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace moe::test {

// moe-train with `args`; empty when it exits 0, else its stderr (or that it timed out).
inline QString trainFails(const QStringList& args) {
  QProcess process;
  process.start(MOE_TRAIN_BIN, args);
  if (!process.waitForFinished(300000)) return QStringLiteral("timed out: ") + args.join(' ');
  if (process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0) return {};
  return QString::fromUtf8(process.readAllStandardError());
}

}  // namespace moe::test
