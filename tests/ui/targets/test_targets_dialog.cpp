// TargetsDialog driven through its widgets: an SSH host added and saved (a bad port shown and
// refused first), the Slurm fields of a Slurm cluster, and Test connection on a host that refuses
// connections, answered without blocking the dialog.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>

#include "base/remote/target.h"
#include "base/targets/target_store.h"
#include "targets/targets_dialog.h"

using moe::ui::Target;
using moe::ui::TargetsDialog;
using moe::ui::TargetStore;
using Kind = moe::ui::Target::Kind;

namespace {

constexpr int kTimeoutMs = 90000;

// Types `text` into a line edit found by object name, replacing what it held.
void typeInto(QWidget& dialog, const char* name, const QString& text) {
  auto* edit = dialog.findChild<QLineEdit*>(QString::fromLatin1(name));
  QVERIFY2(edit, name);
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
}

template <typename T>
T* child(QWidget& dialog, const char* name) {
  return dialog.findChild<T*>(QString::fromLatin1(name));
}

}  // namespace

class TestTargetsDialog : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("moe-studio-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_targets_dialog"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath("settings"));
  }
  void init() { QSettings().clear(); }

  void addsAnSshHostThroughTheForm() {
    TargetStore store;
    TargetsDialog dialog(&store);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* list = child<QListWidget>(dialog, "targetList");
    QVERIFY(list);
    QCOMPARE(list->count(), 1);
    QVERIFY(child<QLabel>(dialog, "localNote")->isVisible());
    QVERIFY(!child<QPushButton>(dialog, "removeTarget")->isEnabled());
    QVERIFY(!child<QPushButton>(dialog, "testConnection")->isEnabled());

    dialog.findChild<QAction*>("addSshTarget")->trigger();
    QVERIFY(child<QLineEdit>(dialog, "targetHost")->isVisible());
    QVERIFY(!child<QSpinBox>(dialog, "slurmNodes")->isVisible());
    typeInto(dialog, "targetName", "gpu-box");
    typeInto(dialog, "targetHost", "10.0.0.7");
    typeInto(dialog, "targetUser", "ada");
    typeInto(dialog, "targetPort", "70000");
    child<QPlainTextEdit>(dialog, "targetSetupCommands")->setPlainText("module load cuda\n\n");

    auto* problems = child<QLabel>(dialog, "targetProblems");
    QVERIFY(problems->isVisible());
    QVERIFY2(problems->text().startsWith("port: "), qPrintable(problems->text()));
    auto* save = child<QPushButton>(dialog, "saveTarget");
    QTest::mouseClick(save, Qt::LeftButton);
    QCOMPARE(store.targets().size(), 1);
    QVERIFY(child<QLabel>(dialog, "targetStatus")->text().contains("port: "));

    typeInto(dialog, "targetPort", "2222");
    QVERIFY(!problems->isVisible());
    QTest::mouseClick(save, Qt::LeftButton);
    const auto saved = store.find("gpu-box");
    QVERIFY(saved.has_value());
    QCOMPARE(saved->kind, Kind::Ssh);
    QCOMPARE(saved->ssh.destination(), QStringLiteral("ada@10.0.0.7"));
    QCOMPARE(saved->ssh.port, 2222);
    QCOMPARE(saved->runs_root, QStringLiteral("~/moe-runs"));
    QCOMPARE(saved->setup_commands, QStringList{"module load cuda"});
    QCOMPARE(list->count(), 2);
    QVERIFY(list->currentItem()->text().startsWith("gpu-box"));
    QVERIFY(!save->isEnabled());  // nothing left to save
    QVERIFY(TargetStore().find("gpu-box").has_value());

    // A second host of the same name is refused with the store's reason.
    dialog.findChild<QAction*>("addSshTarget")->trigger();
    typeInto(dialog, "targetName", "gpu-box");
    typeInto(dialog, "targetHost", "10.0.0.8");
    QTest::mouseClick(save, Qt::LeftButton);
    QVERIFY(child<QLabel>(dialog, "targetStatus")->text().contains("exists"));
    QCOMPARE(store.find("gpu-box")->ssh.host, QStringLiteral("10.0.0.7"));
  }

  void slurmClusterOnThisMachine() {
    TargetStore store;
    TargetsDialog dialog(&store);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.findChild<QAction*>("addSlurmTarget")->trigger();
    QVERIFY(child<QSpinBox>(dialog, "slurmNodes")->isVisible());
    auto* local = child<QCheckBox>(dialog, "slurmLocal");
    QVERIFY(local->isVisible());
    typeInto(dialog, "targetName", "hpc");
    local->setChecked(false);
    // Over SSH, a cluster needs a host; on this machine it needs none.
    QVERIFY2(child<QLabel>(dialog, "targetProblems")->text().startsWith("host: "),
             qPrintable(child<QLabel>(dialog, "targetProblems")->text()));
    local->setChecked(true);
    QVERIFY(!child<QLineEdit>(dialog, "targetHost")->isEnabled());
    child<QSpinBox>(dialog, "slurmNodes")->setValue(2);
    child<QSpinBox>(dialog, "slurmGpusPerNode")->setValue(4);
    typeInto(dialog, "slurmPartition", "gpu");
    typeInto(dialog, "slurmTimeLimit", "2h");
    QVERIFY(child<QLabel>(dialog, "targetProblems")->text().startsWith("time_limit: "));
    typeInto(dialog, "slurmTimeLimit", "1-00:00");
    QVERIFY(dialog.save());
    const Target saved = store.find("hpc").value();
    QCOMPARE(saved.kind, Kind::Slurm);
    QVERIFY(saved.ssh.isLocal());
    QCOMPARE(saved.slurm.nodes, 2);
    QCOMPARE(saved.slurm.gpus_per_node, 4);
    QCOMPARE(saved.slurm.partition, QStringLiteral("gpu"));
    QCOMPARE(saved.slurm.time_limit, QStringLiteral("1-00:00"));

    // Selected again, the saved cluster fills the form as it was.
    QVERIFY(dialog.select("local"));
    QVERIFY(child<QLabel>(dialog, "localNote")->isVisible());
    QVERIFY(dialog.select("hpc"));
    QVERIFY(local->isChecked());
    QCOMPARE(child<QSpinBox>(dialog, "slurmNodes")->value(), 2);
    QVERIFY(!child<QPushButton>(dialog, "saveTarget")->isEnabled());
  }

  // A Slurm cluster over SSH at the dialog's own size: no label cut off. With MOE_SCREENSHOT_DIR
  // set it saves targets_dialog.png (and the bad-value messages, targets_dialog_problems.png).
  void lookOfASlurmCluster() {
    TargetStore store;
    Target cluster;
    cluster.kind = Kind::Slurm;
    cluster.name = QStringLiteral("hpc-login");
    cluster.ssh.host = QStringLiteral("login.hpc.example.org");
    cluster.ssh.user = QStringLiteral("ada");
    cluster.runs_root = QStringLiteral("/scratch/ada/moe-runs");
    cluster.setup_commands = {QStringLiteral("module load cuda/12.4"),
                              QStringLiteral("source ~/venvs/moe/bin/activate")};
    cluster.slurm.partition = QStringLiteral("gpu");
    cluster.slurm.nodes = 2;
    cluster.slurm.tasks_per_node = 4;
    cluster.slurm.gpus_per_node = 4;
    cluster.slurm.time_limit = QStringLiteral("12:00:00");
    QVERIFY(store.add(cluster).isEmpty());
    Target box;
    box.kind = Kind::Ssh;
    box.name = QStringLiteral("gpu-box");
    box.ssh.host = QStringLiteral("10.0.0.7");
    box.runs_root = QStringLiteral("~/moe-runs");
    QVERIFY(store.add(box).isEmpty());
    TargetsDialog dialog(&store);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.select("hpc-login"));
    QTest::qWait(50);
    for (QLabel* label : dialog.findChildren<QLabel*>()) {
      if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
      QVERIFY2(label->width() >= label->minimumSizeHint().width(), qPrintable(label->text()));
    }
    const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (shots.isEmpty()) return;
    const QString shot = QDir(shots).filePath(QStringLiteral("targets_dialog.png"));
    QVERIFY(dialog.grab().save(shot));
    qInfo("saved %s", qPrintable(shot));
    typeInto(dialog, "targetPort", "0");
    typeInto(dialog, "slurmTimeLimit", "12h");
    typeInto(dialog, "targetRunsRoot", "runs");
    QTest::qWait(50);
    const QString problems = QDir(shots).filePath(QStringLiteral("targets_dialog_problems.png"));
    QVERIFY(dialog.grab().save(problems));
    qInfo("saved %s", qPrintable(problems));
  }

  void testConnectionRunsWithoutBlocking() {
    TargetStore store;
    Target target;
    target.kind = Kind::Ssh;
    target.name = QStringLiteral("refusing");
    target.ssh.host = QStringLiteral("127.0.0.1");
    target.ssh.port = 1;  // nothing listens there: ssh is refused at once
    target.runs_root = QStringLiteral("~/moe-runs");
    QVERIFY(store.add(target).isEmpty());
    TargetsDialog dialog(&store);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.select("refusing"));

    auto* test = child<QPushButton>(dialog, "testConnection");
    auto* result = child<QLabel>(dialog, "connectionResult");
    QVERIFY(test->isEnabled());
    QTest::mouseClick(test, Qt::LeftButton);
    QVERIFY(!test->isEnabled());
    QVERIFY(result->text().startsWith("Testing refusing"));
    QTRY_VERIFY_WITH_TIMEOUT(test->isEnabled(), kTimeoutMs);
    QVERIFY2(result->text().startsWith("refusing:\nNot reachable: "), qPrintable(result->text()));
    const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      const QString shot = QDir(shots).filePath(QStringLiteral("targets_dialog_test.png"));
      QVERIFY(dialog.grab().save(shot));
      qInfo("saved %s", qPrintable(shot));
    }
  }
};

QTEST_MAIN(TestTargetsDialog)
#include "test_targets_dialog.moc"
