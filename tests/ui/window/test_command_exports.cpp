// The command lines that start a config by hand (exportedCommands) and their dialog: exact lines
// for one rank, several ranks and several nodes, paths quoted only when they need it, Copy, and
// the saved sbatch script.
#include <QtTest>

#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>

#include "base/remote/slurm_script.h"
#include "base/report/command_exports.h"
#include "window/command_export_dialog.h"

using moe::ui::ExportedCommand;
using Kind = moe::ui::ExportedCommand::Kind;

namespace {

moe::protocol::RunConfig ranksConfig(int64_t nodes, int64_t nproc) {
  moe::protocol::RunConfig c;
  c.name = "sweep 3";
  c.parallel.nodes = nodes;
  c.parallel.nproc = nproc;
  return c;
}

QString textOf(const QList<ExportedCommand>& commands, Kind kind) {
  for (const ExportedCommand& c : commands)
    if (c.kind == kind) return c.text;
  return QStringLiteral("<no such command>");
}

}  // namespace

class TestCommandExports : public QObject {
  Q_OBJECT

 private slots:
  void oneNodeCommands() {
    const auto commands = moe::ui::exportedCommands(
        QStringLiteral("/home/me/exp/c.json"), ranksConfig(1, 2), moe::ui::defaultSlurmTarget());
    QCOMPARE(commands.size(), 5);
    QCOMPARE(textOf(commands, Kind::Run),
             QStringLiteral("moe-train run --config /home/me/exp/c.json"));
    QVERIFY(commands[0].note.contains(QStringLiteral("needs 2 ranks")));
    QCOMPARE(
        textOf(commands, Kind::Launch),
        QStringLiteral("moe-train launch --nproc-per-node 2 -- run --config /home/me/exp/c.json"));
    QCOMPARE(textOf(commands, Kind::Torchrun),
             QStringLiteral("torchrun --no-python --nproc-per-node=2 moe-train run --config "
                            "/home/me/exp/c.json"));
    QCOMPARE(textOf(commands, Kind::Srun),
             QStringLiteral("srun --ntasks=2 moe-train run --config /home/me/exp/c.json"));
    const QString script = textOf(commands, Kind::SbatchScript);
    QVERIFY(script.startsWith(QStringLiteral("#!/bin/bash\n#SBATCH --job-name=sweep_3\n")));
    QVERIFY(script.contains(QStringLiteral("#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=2\n")));
  }

  void severalNodesNeedARendezvous() {
    const auto commands = moe::ui::exportedCommands(QStringLiteral("c.json"), ranksConfig(3, 4),
                                                    moe::ui::defaultSlurmTarget());
    QCOMPARE(
        textOf(commands, Kind::Launch),
        QStringLiteral("moe-train launch --nproc-per-node 4 --nnodes 3 --node-rank 0 "
                       "--master-addr MASTER_HOST --master-port 29500 -- run --config c.json"));
    QCOMPARE(textOf(commands, Kind::Torchrun),
             QStringLiteral("torchrun --no-python --nproc-per-node=4 --nnodes=3 "
                            "--rdzv-backend=c10d --rdzv-endpoint=MASTER_HOST:29500 moe-train run "
                            "--config c.json"));
    QCOMPARE(textOf(commands, Kind::Srun),
             QStringLiteral("srun --nodes=3 --ntasks-per-node=4 moe-train run --config c.json"));
    QVERIFY(textOf(commands, Kind::SbatchScript)
                .contains(QStringLiteral("#SBATCH --nodes=3\n#SBATCH --ntasks-per-node=4\n")));
  }

  void oddPathsAreQuoted() {
    const auto commands = moe::ui::exportedCommands(
        QStringLiteral("/tmp/my exp/it's.json"), ranksConfig(1, 1), moe::ui::defaultSlurmTarget());
    QCOMPARE(textOf(commands, Kind::Run),
             QStringLiteral("moe-train run --config '/tmp/my exp/it'\\''s.json'"));
    QVERIFY(commands[0].note.contains(QStringLiteral("One process")));
  }

  void targetSettingsReachTheScriptAndProblemsAreShown() {
    moe::ui::Target target = moe::ui::defaultSlurmTarget();
    target.slurm.partition = QStringLiteral("a100");
    target.train_program = QStringLiteral("/opt/moe/bin/moe-train");
    QString script =
        textOf(moe::ui::exportedCommands(QStringLiteral("c.json"), ranksConfig(1, 1), target),
               Kind::SbatchScript);
    QVERIFY(script.contains(QStringLiteral("#SBATCH --partition=a100\n")));
    QVERIFY(script.contains(QStringLiteral("\nsrun /opt/moe/bin/moe-train run --config")));
    target.slurm.account = QStringLiteral("x\ny");
    script = textOf(moe::ui::exportedCommands(QStringLiteral("c.json"), ranksConfig(1, 1), target),
                    Kind::SbatchScript);
    QVERIFY2(script.startsWith(QStringLiteral("# slurm account: ")), qPrintable(script));
    QVERIFY(!script.contains(QStringLiteral("srun")));
  }

  void scriptTakesTheCurrentOrFirstSlurmTarget() {
    using moe::ui::Target;
    Target ssh;
    ssh.kind = Target::Kind::Ssh;
    ssh.name = QStringLiteral("box");
    Target a = moe::ui::defaultSlurmTarget(), b = a;
    a.name = QStringLiteral("a");
    b.name = QStringLiteral("b");
    const QList<Target> targets{Target::local(), ssh, a, b};
    QCOMPARE(moe::ui::slurmTargetForExport(b, targets).name, QStringLiteral("b"));
    QCOMPARE(moe::ui::slurmTargetForExport(ssh, targets).name, QStringLiteral("a"));
    const Target fallback = moe::ui::slurmTargetForExport(ssh, {Target::local(), ssh});
    QVERIFY(fallback.kind == Target::Kind::Slurm);
    QCOMPARE(fallback.name, QStringLiteral("slurm"));
  }

  void dialogShowsCopiesAndSaves() {
    moe::ui::CommandExportDialog dialog(QStringLiteral("c.json"), ranksConfig(1, 2),
                                        moe::ui::defaultSlurmTarget());
    auto* torchrun = dialog.findChild<QPlainTextEdit*>(QStringLiteral("command_torchrun"));
    QVERIFY(torchrun);
    QVERIFY(torchrun->isReadOnly());
    QCOMPARE(
        torchrun->toPlainText(),
        QStringLiteral("torchrun --no-python --nproc-per-node=2 moe-train run --config c.json"));
    auto* copy = dialog.findChild<QPushButton*>(QStringLiteral("copy_srun"));
    QVERIFY(copy);
    copy->click();
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QStringLiteral("srun --ntasks=2 moe-train run --config c.json"));
    QVERIFY(dialog.findChild<QPushButton*>(QStringLiteral("save_sbatch")));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("job.sbatch"));
    QString error;
    QVERIFY2(dialog.saveScript(path, &error), qPrintable(error));
    QFile saved(path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(saved.readAll()), dialog.script());
    QVERIFY(dialog.script().contains(QStringLiteral("#SBATCH --ntasks-per-node=2\n")));
    QVERIFY(saved.permissions() & QFile::ExeOwner);
    const QString nowhere = dir.filePath(QStringLiteral("missing/job.sbatch"));
    QVERIFY(!dialog.saveScript(nowhere, &error));
    QVERIFY2(error.contains(nowhere), qPrintable(error));

    const QString shots = qEnvironmentVariable("MOE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      dialog.show();
      QVERIFY(QTest::qWaitForWindowExposed(&dialog));
      const QString shot = QDir(shots).filePath(QStringLiteral("export_dialog.png"));
      QVERIFY(dialog.grab().save(shot));
      qInfo("saved %s", qPrintable(shot));
    }
  }
};

QTEST_MAIN(TestCommandExports)
#include "test_command_exports.moc"
