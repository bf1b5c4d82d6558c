// slurmBatchScript and the shell words it is made of: the exact script of a known target, run
// names that try to escape their #SBATCH line, settings that cannot go into one, and words that
// reach a real shell unchanged.
#include <QtTest>

#include <QProcess>
#include <QRegularExpression>

#include "base/remote/shell_words.h"
#include "base/remote/slurm_script.h"

using moe::ui::Target;

namespace {

Target clusterTarget() {
  Target t;
  t.kind = Target::Kind::Slurm;
  t.name = QStringLiteral("cluster");
  t.slurm.partition = QStringLiteral("gpu");
  t.slurm.nodes = 2;
  t.slurm.tasks_per_node = 4;
  t.slurm.gpus_per_node = 4;
  t.slurm.time_limit = QStringLiteral("01:30:00");
  t.slurm.account = QStringLiteral("proj-7");
  t.slurm.extra_lines = {QStringLiteral("--mem=0"), QStringLiteral("#SBATCH --exclusive"),
                         QStringLiteral("  ")};
  t.setup_commands = {QStringLiteral("module load cuda/12.4"),
                      QStringLiteral("source ~/venv/bin/activate")};
  return t;
}

// What a POSIX shell (with HOME=/home/h) makes of `line`'s words after `printf '%s\0'`.
QStringList wordsAsShellReadsThem(const QString& line) {
  QProcess sh;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("HOME"), QStringLiteral("/home/h"));
  sh.setProcessEnvironment(env);
  sh.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("printf '%s\\0' ") + line});
  if (!sh.waitForFinished(10000)) return {QStringLiteral("<sh did not finish>")};
  QStringList words = QString::fromUtf8(sh.readAllStandardOutput()).split(QChar(0));
  words.removeLast();  // after the last NUL
  return words;
}

const QStringList kHostileNames{QStringLiteral("it's"),
                                QStringLiteral("a;rm -rf ~"),
                                QStringLiteral("$(reboot)"),
                                QStringLiteral("`id`"),
                                QStringLiteral("two\nlines"),
                                QStringLiteral("cr\rhere"),
                                QStringLiteral("--help"),
                                QStringLiteral("-n 1"),
                                QStringLiteral(".hidden"),
                                QStringLiteral("\"quoted\""),
                                QStringLiteral("#SBATCH --x"),
                                QStringLiteral("ünïcødé"),
                                QString(),
                                QString(200, QChar('x'))};

}  // namespace

class TestSlurmScript : public QObject {
  Q_OBJECT

 private slots:
  void knownTargetGivesExactScript() {
    const QString expected = QStringLiteral(
        "#!/bin/bash\n"
        "#SBATCH --job-name=my_run\n"
        "#SBATCH --output=remote/slurm-%j.out\n"
        "#SBATCH --nodes=2\n"
        "#SBATCH --ntasks-per-node=4\n"
        "#SBATCH --gpus-per-node=4\n"
        "#SBATCH --partition=gpu\n"
        "#SBATCH --time=01:30:00\n"
        "#SBATCH --account=proj-7\n"
        "#SBATCH --mem=0\n"
        "#SBATCH --exclusive\n"
        "module load cuda/12.4\n"
        "source ~/venv/bin/activate\n"
        "cd \"$SLURM_SUBMIT_DIR\" || exit 1  # the setup may have moved\n"
        "# The ranks meet on the step's first host, at port 20000 + SLURM_JOB_ID mod 20000\n"
        "# (export MASTER_PORT in the setup to choose another port).\n"
        "# Telemetry is in metrics.jsonl; the app shows the tail of the stderr log.\n"
        "command -v \"$HOME\"/bin/moe-train > /dev/null || { echo \"moe-train not found at\" "
        "\"$HOME\"/bin/moe-train \"on $(hostname)\" > remote/stderr.log; echo 127 > "
        "remote/exit_status; exit 127; }\n"
        "srun \"$HOME\"/bin/moe-train run --config remote/submitted.json --run-dir "
        "\"$SLURM_SUBMIT_DIR\" > /dev/null 2> remote/stderr.log\n"
        "status=$?\n"
        "echo \"$status\" > remote/exit_status.tmp && mv remote/exit_status.tmp "
        "remote/exit_status\n"
        "exit \"$status\"\n");
    QCOMPARE(moe::ui::slurmBatchScript(clusterTarget(), QStringLiteral("my run"),
                                       QStringLiteral("~/bin/moe-train")),
             expected);
  }

  void unsetSettingsLeaveTheirLinesOut() {
    Target t;
    t.kind = Target::Kind::Slurm;
    const QString script = moe::ui::slurmBatchScript(t, QStringLiteral("r"), QString());
    QVERIFY(
        script.contains(QStringLiteral("#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n"
                                       "cd \"$SLURM_SUBMIT_DIR\"")));
    QVERIFY(!script.contains(QStringLiteral("--gpus-per-node")));
    QVERIFY(!script.contains(QStringLiteral("--partition")));
    QVERIFY(script.contains(QStringLiteral("\nsrun moe-train run --config")));
  }

  void hostileRunNamesStayInTheirLine() {
    const Target t = clusterTarget();
    const QString reference = moe::ui::slurmBatchScript(t, QStringLiteral("plain"), QString());
    const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$"));
    for (const QString& name : kHostileNames) {
      const QString job = moe::ui::slurmJobName(name);
      QVERIFY2(safe.match(job).hasMatch(), qPrintable(job));
      QString script = moe::ui::slurmBatchScript(t, name, QString());
      // Only the job name differs from a plain name's script: nothing else was injected.
      script.replace(QStringLiteral("--job-name=") + job + '\n',
                     QStringLiteral("--job-name=plain\n"));
      QCOMPARE(script, reference);
    }
    QCOMPARE(moe::ui::slurmJobName(QStringLiteral("a;b $(c)")), QStringLiteral("a_b___c_"));
    QCOMPARE(moe::ui::slurmJobName(QStringLiteral("--help")), QStringLiteral("_-help"));
    QCOMPARE(moe::ui::slurmJobName(QString()), QStringLiteral("moe-run"));
  }

  void hostileProgramIsOneWord() {
    const Target t = clusterTarget();
    for (const QString& program :
         {QStringLiteral("/opt/moe train/moe-train"), QStringLiteral("/x/$(id)"),
          QStringLiteral("/x/it's"), QStringLiteral("~/a b/`id`;x")}) {
      const QString script = moe::ui::slurmBatchScript(t, QStringLiteral("r"), program);
      const QString srun = script.section('\n', -5, -5);
      QVERIFY2(srun.startsWith(QStringLiteral("srun ")), qPrintable(srun));
      // Everything between srun and run is the program, as one word; ~/ still means home.
      const QString word = srun.mid(5, srun.indexOf(QStringLiteral(" run --config")) - 5);
      QString want = program;
      want.replace(QStringLiteral("~/"), QStringLiteral("/home/h/"));
      QCOMPARE(wordsAsShellReadsThem(word), QStringList{want});
    }
  }

  void settingsThatCannotGoInALineAreRefused() {
    Target t = clusterTarget();
    t.slurm.partition = QStringLiteral("gpu\nsrun evil");
    t.slurm.extra_lines << QStringLiteral("--mem=1\r--x");
    t.slurm.nodes = 0;
    QCOMPARE(moe::ui::slurmBatchScript(t, QStringLiteral("r"), QString()), QString());
    const QStringList problems = moe::ui::slurmScriptProblems(t);
    QCOMPARE(problems.size(), 3);
    QVERIFY(problems[0].startsWith(QStringLiteral("slurm nodes: ")));
    QVERIFY(problems[1].startsWith(QStringLiteral("slurm partition: ")));
    QVERIFY(problems[2].startsWith(QStringLiteral("slurm extra line 4: ")));
    QVERIFY(moe::ui::slurmScriptProblems(clusterTarget()).isEmpty());
  }

  void shellWordsQuoteOnlyWhenNeeded() {
    QCOMPARE(moe::ui::shellWord(QStringLiteral("/home/me/exp-1/c.json")),
             QStringLiteral("/home/me/exp-1/c.json"));
    QCOMPARE(moe::ui::shellWord(QStringLiteral("--nproc-per-node=2")),
             QStringLiteral("--nproc-per-node=2"));
    QCOMPARE(moe::ui::shellWord(QStringLiteral("my exp.json")), QStringLiteral("'my exp.json'"));
    QCOMPARE(moe::ui::shellWord(QString()), QStringLiteral("''"));
    const QStringList words{QStringLiteral("a b"),
                            QStringLiteral("it's"),
                            QStringLiteral("$(id)"),
                            QStringLiteral("`id`"),
                            QStringLiteral("x;y"),
                            QStringLiteral("~/f"),
                            QStringLiteral("two\nlines"),
                            QStringLiteral("*"),
                            QString(),
                            QStringLiteral("plain-word_1.json")};
    QCOMPARE(wordsAsShellReadsThem(moe::ui::shellLine(words)), words);
  }
};

QTEST_GUILESS_MAIN(TestSlurmScript)
#include "test_slurm_script.moc"
