// RunHeader over live runs that ended: /bin/sh scripts stand in for moe-train, print a few steps
// of telemetry and exit as a finished, cancelled or failed run does. While the run goes on the
// progress bar shows an ETA; once it ended, the steps it reached and how long it ran instead.
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "../run/fake_run_telemetry.h"
#include "base/run/local_run.h"
#include "dashboard/run_header.h"

using moe::ui::LaunchSpec;
using moe::ui::LocalRun;
using moe::ui::RunHeader;
using State = moe::ui::LocalRun::State;

Q_DECLARE_METATYPE(State)

namespace {

constexpr int kTimeoutMs = 20000;

using moe::test::kTwoOfFourStepsTelemetry;  // two of four steps, one second apart: ETA 2 s

}  // namespace

class TestRunHeader : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  // A stand-in for moe-train: prints the telemetry, then exits with `exit_code`.
  QString script(const QString& name, int exit_code) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(QByteArray("#!/bin/sh\ncat <<'EOF'\n") + kTwoOfFourStepsTelemetry + "EOF\nexit " +
               QByteArray::number(exit_code) + "\n");
    file.close();
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void endedProgressSaysStepsAndDuration() {
    using moe::ui::formatEndedProgress;
    QCOMPARE(formatEndedProgress(1344, 1000000, 25499.4),
             QString("step 1344 / 1000000   ran 7:04:59"));
    QCOMPARE(formatEndedProgress(30, 30, 16), QString("step 30 / 30   ran 0:16"));
    QCOMPARE(formatEndedProgress(12, 0, 65), QString("step 12   ran 1:05"));
    QCOMPARE(formatEndedProgress(0, 100, 3), QString("no steps   ran 0:03"));
    QCOMPARE(formatEndedProgress(7, 100, -1), QString("step 7 / 100"));
  }

  void anEndedRunShowsNoEta_data() {
    QTest::addColumn<int>("exit_code");
    QTest::addColumn<State>("ending");
    QTest::newRow("finished") << 0 << State::Finished;
    QTest::newRow("cancelled") << 130 << State::Cancelled;
    QTest::newRow("failed") << 1 << State::Failed;
  }

  void anEndedRunShowsNoEta() {
    QFETCH(int, exit_code);
    QFETCH(State, ending);
    LaunchSpec spec;
    spec.program = script(QStringLiteral("exit-%1.sh").arg(exit_code), exit_code);
    QVERIFY(!spec.program.isEmpty());
    spec.config_file = dir_.filePath(QStringLiteral("unused.json"));
    spec.run_dir = dir_.filePath(QStringLiteral("run-%1").arg(exit_code));
    LocalRun run(spec);
    RunHeader header(&run, spec.run_dir);
    // What the bar said at the last progress report, while the run was going.
    QString while_running;
    connect(&run, &LocalRun::progressChanged, this, [&] { while_running = header.progressText(); });
    QSignalSpy finished(&run, &LocalRun::finished);
    run.start();
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(run.state(), ending);
    QCOMPARE(while_running, QString("step 2 / 4   ETA 0:02"));

    const QRegularExpression ended(R"(^step 2 / 4   ran \d+:\d\d$)");
    QVERIFY2(ended.match(header.progressText()).hasMatch(), qPrintable(header.progressText()));
    // A dashboard opened after the end says the same.
    RunHeader late(&run, spec.run_dir);
    QVERIFY2(ended.match(late.progressText()).hasMatch(), qPrintable(late.progressText()));
  }
};

QTEST_MAIN(TestRunHeader)
#include "test_run_header.moc"
