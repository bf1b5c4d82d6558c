// slurmBatchScript on a real Slurm: a one-node cluster of the test's own
// (tests/e2e/launchers/slurm_cluster.sh) runs the generated script as sbatch would for the app,
// submitted from a run directory that holds remote/submitted.json, on one task and on two. The
// job must write remote/exit_status 0, and the run its metrics.jsonl ending in run_end.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include "base/remote/slurm_script.h"

namespace {

constexpr int kJobTimeoutMs = 240000;  // two shared cores: be patient

QByteArray tinyConfig(int nproc) {
  return QStringLiteral(
             R"({"name":"slurm-test","model":{"kind":"lm","dim":32,"layers":2,"heads":2,)"
             R"("seq_len":16},"moe":{"experts":4,"hidden":32},)"
             R"("train":{"steps":10,"batch_size":8,"threads":1},)"
             R"("parallel":{"nproc":%1,"timeout_s":60}})")
      .arg(nproc)
      .toUtf8();
}

QString readFile(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

class TestSlurmBatchRun : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QProcessEnvironment env_ = QProcessEnvironment::systemEnvironment();
  QStringList jobs_;

  QString clusterDir() const { return dir_.filePath(QStringLiteral("slurm")); }

  // Runs `program` to its end (in `working_dir` when given); its exit status, output in `out`.
  int runProgram(const QString& program, const QStringList& args, QString* out,
                 const QString& working_dir = QString()) {
    QProcess p;
    p.setProcessEnvironment(env_);
    p.setWorkingDirectory(working_dir);
    p.start(program, args);
    if (!p.waitForFinished(60000)) {
      p.kill();
      p.waitForFinished();
      *out = program + QStringLiteral(" did not finish");
      return -1;
    }
    *out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  }

  // A run directory as the app makes one, the script submitted from it; the run's directory.
  QString submit(const QString& name, int tasks) {
    const QString run_dir = dir_.filePath(name);
    QDir().mkpath(run_dir + QStringLiteral("/remote"));
    QFile config(QDir(run_dir).filePath(QLatin1String(moe::ui::kSubmittedConfig)));
    if (!config.open(QIODevice::WriteOnly) || config.write(tinyConfig(tasks)) < 0) return {};
    config.close();
    moe::ui::Target target;
    target.kind = moe::ui::Target::Kind::Slurm;
    target.slurm.tasks_per_node = tasks;
    target.slurm.extra_lines = {QStringLiteral("--overcommit")};  // more tasks than cores is fine
    const QString script_path = QDir(run_dir).filePath(QStringLiteral("remote/job.sbatch"));
    QFile script(script_path);
    if (!script.open(QIODevice::WriteOnly)) return {};
    script.write(
        moe::ui::slurmBatchScript(target, QStringLiteral("ui test %1").arg(name), MOE_TRAIN_BIN)
            .toUtf8());
    script.close();
    QString out;
    const int status = runProgram(
        QStringLiteral("sbatch"),
        {QStringLiteral("--parsable"), QStringLiteral("remote/job.sbatch")}, &out, run_dir);
    if (status != 0) {
      qWarning("sbatch: %s", qPrintable(out));
      return {};
    }
    jobs_ << out.trimmed().section(';', 0, 0);
    return run_dir;
  }

  void expectCompleted(const QString& run_dir, const QString& job) {
    const QString exit_file = QDir(run_dir).filePath(QLatin1String(moe::ui::kExitStatusFile));
    const QString job_out = QDir(run_dir).filePath(QStringLiteral("remote/slurm-%1.out").arg(job));
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(exit_file), qPrintable(readFile(job_out)),
                              kJobTimeoutMs);
    QCOMPARE(readFile(exit_file), QStringLiteral("0\n"));
    QVERIFY(!QFile::exists(exit_file + QStringLiteral(".tmp")));
    const QStringList events =
        readFile(QDir(run_dir).filePath(QStringLiteral("metrics.jsonl"))).trimmed().split('\n');
    QVERIFY2(events.last().contains(QStringLiteral("\"run_end\"")), qPrintable(events.last()));
    QVERIFY2(events.last().contains(QStringLiteral("\"completed\"")), qPrintable(events.last()));
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    env_.insert(QStringLiteral("SLURM_CONF"), clusterDir() + QStringLiteral("/slurm.conf"));
    QString out;
    const int status = runProgram(QStringLiteral(MOE_SLURM_CLUSTER_SCRIPT),
                                  {QStringLiteral("start"), clusterDir()}, &out);
    QVERIFY2(status == 0, qPrintable(QStringLiteral("slurm_cluster.sh start: ") + out));
  }

  void oneTaskRunCompletes() {
    const QString run_dir = submit(QStringLiteral("one"), 1);
    QVERIFY(!run_dir.isEmpty());
    expectCompleted(run_dir, jobs_.last());
  }

  void twoTaskRunCompletesOnTwoRanks() {
    const QString run_dir = submit(QStringLiteral("two"), 2);
    QVERIFY(!run_dir.isEmpty());
    expectCompleted(run_dir, jobs_.last());
    const QString rank1 = readFile(QDir(run_dir).filePath(QStringLiteral("stderr.rank1.log")));
    QVERIFY2(rank1.contains(QStringLiteral("rank 1 of 2")), qPrintable(rank1));
  }

  void cleanupTestCase() {
    QString out;
    if (!jobs_.isEmpty()) runProgram(QStringLiteral("scancel"), jobs_, &out);
    runProgram(QStringLiteral(MOE_SLURM_CLUSTER_SCRIPT), {QStringLiteral("stop"), clusterDir()},
               &out);
  }
};

QTEST_GUILESS_MAIN(TestSlurmBatchRun)
#include "test_slurm_batch_run.moc"
