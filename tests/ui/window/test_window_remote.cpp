// The main window with a remote target (a real sshd on 127.0.0.1 and the real engine): Run starts
// the experiment on the target chosen beside the button; closing the app leaves the run training
// there, and the next start re-attaches it without blocking the window and lists it in the Runs
// tab with its target.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include <memory>

#include "../remote/ssh_server_fixture.h"
#include "base/experiment/experiment_document.h"
#include "base/remote/remote_fetch.h"
#include "base/remote/remote_run.h"
#include "base/runs/run_directory_index.h"
#include "base/runs/run_manager.h"
#include "base/runs/run_store.h"
#include "base/targets/target_store.h"
#include "experiment/experiment_editor.h"
#include "runs/runs_view.h"
#include "window/main_window.h"
#include "window_test_support.h"

using namespace moe::ui;

namespace {

constexpr int kRunTimeoutMs = 300000;

bool waitForEnd(Run* run) {
  if (!run->isActive()) return true;
  QSignalSpy finished(run, &Run::finished);
  return finished.wait(kRunTimeoutMs);
}

}  // namespace

class TestWindowRemote : public QObject {
  Q_OBJECT

  std::unique_ptr<moe::test::SshServerFixture> server_;

 private slots:
  void initTestCase() {
    test::useTemporaryHome();
    server_ = std::make_unique<moe::test::SshServerFixture>();
    QVERIFY2(server_->ok(), qPrintable(server_->error()));
    TargetStore targets;
    QCOMPARE(targets.add(server_->sshTarget(QStringLiteral("box"))), QStringList());
    targets.setCurrentName(QStringLiteral("box"));
  }

  void runStartsOnTheChosenTarget() {
    MainWindow window;
    auto* picker = window.findChild<QComboBox*>(QStringLiteral("targetPicker"));
    QVERIFY(picker);
    QCOMPARE(picker->currentData().toString(), QStringLiteral("box"));
    window.editor()->document()->setText(test::tinyLmConfig("remote-window", 8));
    Run* run = window.runExperiment();
    QVERIFY(run);
    QCOMPARE(run->target(), QStringLiteral("box"));
    QVERIFY(run->isDetached());
    QVERIFY(waitForEnd(run));
    QVERIFY2(run->state() == Run::State::Finished, qPrintable(run->errorText()));
    QCOMPARE(run->step(), 8);
    QTRY_VERIFY_WITH_TIMEOUT(window.store()->find(run->runDir()).has_value(), 20000);
    QCOMPARE(window.store()->find(run->runDir())->target, QStringLiteral("box"));
    // With MOE_SCREENSHOT_DIR set: the remote run's dashboard and the Runs tab with its target.
    const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      window.resize(1366, 860);
      window.show();
      QTest::qWait(500);
      QVERIFY(window.grab().save(QDir(shots).filePath(QStringLiteral("remote-run.png"))));
      window.tabs()->setCurrentWidget(window.runsView());
      QTest::qWait(500);
      QVERIFY(window.grab().save(QDir(shots).filePath(QStringLiteral("runs-remote.png"))));
    }
    // Fetch from the Runs tab: the whole remote directory comes into the local one.
    QVERIFY(!QFile::exists(run->runDir() + "/config.json"));
    emit window.runsView()->fetchRequested({run->runDir()});
    auto* fetch = window.findChild<RemoteFetch*>();
    QVERIFY(fetch);
    QSignalSpy fetched(fetch, &RemoteFetch::finished);
    QVERIFY(fetched.wait(120000));
    QVERIFY2(fetched.at(0).at(0).toBool(), qPrintable(fetched.at(0).at(1).toString()));
    QVERIFY(RemoteRunRecord::read(run->runDir()).value_or(RemoteRunRecord{}).fetched);
    QVERIFY(QFile::exists(run->runDir() + "/config.json"));
    QVERIFY(QFile::exists(run->runDir() + "/stderr.log"));
  }

  void restartReattachesARunningRemoteRun() {
    QString dir;
    {
      MainWindow window;
      window.editor()->document()->setText(test::tinyLmConfig("remote-restart", 2500));
      Run* run = window.runExperiment();
      QVERIFY(run);
      QTRY_VERIFY_WITH_TIMEOUT(run->step() >= 5 || !run->isActive(), kRunTimeoutMs);
      QVERIFY(run->isActive());
      QVERIFY(window.runs()->attachedActiveRuns().isEmpty());  // quitting asks nothing
      dir = run->runDir();
    }  // the app quits; the run goes on over there
    MainWindow again;
    QTRY_VERIFY_WITH_TIMEOUT(again.runs()->findByRunDir(dir) != nullptr, 20000);
    auto* run = qobject_cast<RemoteRun*>(again.runs()->findByRunDir(dir));
    QVERIFY(run && run->isReattached());
    QVERIFY(waitForEnd(run));
    QVERIFY2(run->state() == Run::State::Finished, qPrintable(run->errorText()));
    QCOMPARE(run->step(), 2500);
    QTRY_VERIFY_WITH_TIMEOUT(again.store()->find(dir).has_value() &&
                                 again.store()->find(dir)->status == run_status::kFinished,
                             20000);
  }
};

QTEST_MAIN(TestWindowRemote)
#include "test_window_remote.moc"
