#pragma once
// Shared by the remote run tests: a tiny lm config with any name (JSON-escaped, so hostile names
// stay names), reading a file whole, and waiting for a run's end or a step.
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QString>
#include <QTest>

#include "base/run/run.h"

namespace moe::test {

inline constexpr int kRunTimeoutMs = 300000;  // two shared cores: be patient

// A byte-level lm with two MoE layers of 4 experts, a few ms a step; a checkpoint every
// `checkpoint_every` steps; `nproc` processes.
inline QByteArray tinyRemoteConfig(const QString& name, int steps, int checkpoint_every = 100,
                                   int nproc = 1) {
  const QString quoted =
      QString::fromUtf8(QJsonDocument(QJsonArray{name}).toJson(QJsonDocument::Compact))
          .mid(1)
          .chopped(1);
  return QStringLiteral(
             R"({"name":%1,"model":{"kind":"lm","dim":32,"layers":2,"heads":2,"seq_len":16},)"
             R"("moe":{"experts":4,"hidden":32},"train":{"steps":%2,"batch_size":8,"threads":1,)"
             R"("checkpoint_every":%3},"parallel":{"nproc":%4,"timeout_s":60}})")
      .arg(quoted)
      .arg(steps)
      .arg(checkpoint_every)
      .arg(nproc)
      .toUtf8();
}

inline QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline bool waitForEnd(moe::ui::Run& run, int timeout_ms = kRunTimeoutMs) {
  if (!run.isActive()) return true;
  QSignalSpy finished(&run, &moe::ui::Run::finished);
  return finished.wait(timeout_ms);
}

inline bool waitForStep(moe::ui::Run& run, qint64 step, int timeout_ms = kRunTimeoutMs) {
  QElapsedTimer clock;
  clock.start();
  while (run.step() < step && run.isActive() && clock.elapsed() < timeout_ms) QTest::qWait(50);
  return run.step() >= step;
}

// Empty when `run` ends Failed with `text` in its error; else what happened instead.
inline QString failureProblem(moe::ui::Run& run, const QString& text) {
  if (!waitForEnd(run)) return QStringLiteral("still running");
  if (run.state() != moe::ui::Run::State::Failed)
    return QStringLiteral("ended %1: %2")
        .arg(moe::ui::Run::stateName(run.state()), run.errorText());
  if (!run.errorText().contains(text))
    return QStringLiteral("the error does not say '%1': %2").arg(text, run.errorText());
  return {};
}

}  // namespace moe::test

// Waits for `run` (started) to end and checks that it failed with `text` in its error.
#define MOE_EXPECT_FAILURE(run, text)                                     \
  do {                                                                    \
    const QString moe_problem = moe::test::failureProblem((run), (text)); \
    QVERIFY2(moe_problem.isEmpty(), qPrintable(moe_problem));             \
  } while (false)
