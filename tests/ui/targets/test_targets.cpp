// Launch targets: Target's JSON and validation, and TargetStore in the app's settings (the dialog
// is test_targets_dialog).
#include <QtTest>

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSettings>
#include <QTemporaryDir>
#include <functional>

#include "../run/temp_files.h"
#include "base/remote/target.h"
#include "base/targets/target_store.h"

using moe::ui::Target;
using moe::ui::TargetStore;
using Kind = moe::ui::Target::Kind;

namespace {

Target sshTarget(const QString& name) {
  Target target;
  target.kind = Kind::Ssh;
  target.name = name;
  target.ssh.host = QStringLiteral("gpu-box.example.org");
  target.runs_root = QStringLiteral("~/moe-runs");
  return target;
}

// A Slurm target with every field away from its default.
Target fullSlurmTarget(const QString& identity_file) {
  Target target;
  target.kind = Kind::Slurm;
  target.name = QStringLiteral("cluster");
  target.ssh = {
      QStringLiteral("login.hpc.example"), QStringLiteral("ada"), 2222, identity_file, true,
      QStringLiteral("/tmp/known_hosts")};
  target.train_program = QStringLiteral("/opt/moe/bin/moe-train");
  target.runs_root = QStringLiteral("/scratch/ada/runs");
  target.setup_commands = {QStringLiteral("module load cuda/12.4"),
                           QStringLiteral("source ~/venv/bin/activate")};
  target.slurm = {QStringLiteral("gpu"),
                  4,
                  8,
                  8,
                  QStringLiteral("1-12:00:00"),
                  QStringLiteral("proj-42"),
                  {QStringLiteral("#SBATCH --qos=long")}};
  return target;
}

}  // namespace

class TestTargets : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString identity_;  // an existing file standing for a private key

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("moe-studio-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_targets"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath("settings"));
    identity_ = moe::test::writeTempFile(dir_, QStringLiteral("id_test"), "not a real key\n");
    QVERIFY(!identity_.isEmpty());
  }
  void init() { QSettings().clear(); }

  void jsonRoundTripsEveryField() {
    const Target target = fullSlurmTarget(identity_);
    QVERIFY2(target.validate().isEmpty(), qPrintable(target.validate().join('\n')));
    const QByteArray text = QJsonDocument(target.toJson()).toJson();
    const Target back = Target::fromJson(QJsonDocument::fromJson(text).object());
    QVERIFY(back == target);

    const QJsonObject json = target.toJson();
    for (const char* key :
         {"kind", "name", "host", "user", "port", "identity_file", "accept_new_host_key",
          "known_hosts_file", "train_program", "runs_root", "setup_commands", "slurm"}) {
      QVERIFY2(json.contains(QLatin1String(key)), key);
    }
    QCOMPARE(json["kind"].toString(), QStringLiteral("slurm"));
    QCOMPARE(json["slurm"]["time_limit"].toString(), QStringLiteral("1-12:00:00"));
    QCOMPARE(json["slurm"]["tasks_per_node"].toInt(), 8);

    // Each field on its own, so a key read into the wrong member shows.
    Target ssh = sshTarget(QStringLiteral("box"));
    ssh.ssh.user = QStringLiteral("bob");
    QVERIFY(Target::fromJson(ssh.toJson()) == ssh);
    QVERIFY(!(Target::fromJson(ssh.toJson()) == target));

    const Target defaults = Target::fromJson(QJsonObject{{"name", "x"}, {"unknown", 1}});
    QCOMPARE(defaults.kind, Kind::Local);
    QCOMPARE(defaults.ssh.port, 22);
    QCOMPARE(defaults.slurm.nodes, 1);
    QCOMPARE(defaults.slurm.tasks_per_node, 1);
  }

  void localAndDestination() {
    const Target local = Target::local();
    QCOMPARE(local.name, QStringLiteral("local"));
    QCOMPARE(local.kind, Kind::Local);
    QVERIFY(!local.isRemote());
    QVERIFY(local.validate().isEmpty());
    QCOMPARE(Target::kindName(Kind::Ssh), QStringLiteral("ssh"));
    QCOMPARE(Target::kindName(Kind::Slurm), QStringLiteral("slurm"));
    Target target = sshTarget(QStringLiteral("box"));
    QCOMPARE(target.ssh.destination(), QStringLiteral("gpu-box.example.org"));
    target.ssh.user = QStringLiteral("ada");
    QCOMPARE(target.ssh.destination(), QStringLiteral("ada@gpu-box.example.org"));
  }

  void validateNamesEachBadField() {
    struct Case {
      const char* field;
      std::function<void(Target&)> spoil;
    };
    const QList<Case> cases{
        {"name", [](Target& t) { t.name.clear(); }},
        {"name", [](Target& t) { t.name = QStringLiteral("local"); }},
        {"host",
         [](Target& t) {
           t.kind = Kind::Ssh;
           t.ssh.host.clear();
         }},
        {"host", [](Target& t) { t.ssh.host = QStringLiteral("gpu box"); }},
        {"host", [](Target& t) { t.ssh.host = QStringLiteral("-oProxyCommand=sh"); }},
        {"host", [](Target& t) { t.ssh.host = QStringLiteral("box\n"); }},
        {"user", [](Target& t) { t.ssh.user = QStringLiteral("ada lovelace"); }},
        {"user", [](Target& t) { t.ssh.user = QStringLiteral("-l"); }},
        {"port", [](Target& t) { t.ssh.port = 0; }},
        {"port", [](Target& t) { t.ssh.port = 65536; }},
        {"identity_file", [](Target& t) { t.ssh.identity_file = QStringLiteral("/no/such/key"); }},
        {"known_hosts_file", [](Target& t) { t.ssh.known_hosts_file = QStringLiteral("a b"); }},
        {"runs_root", [](Target& t) { t.runs_root.clear(); }},
        {"runs_root", [](Target& t) { t.runs_root = QStringLiteral("runs/here"); }},
        {"runs_root", [](Target& t) { t.runs_root = QStringLiteral("/runs\n/x"); }},
        {"train_program", [](Target& t) { t.train_program = QStringLiteral("moe\ntrain"); }},
        {"setup_commands", [](Target& t) { t.setup_commands << QStringLiteral("a") + QChar(0); }},
        {"nodes", [](Target& t) { t.slurm.nodes = 0; }},
        {"tasks_per_node", [](Target& t) { t.slurm.tasks_per_node = 0; }},
        {"gpus_per_node", [](Target& t) { t.slurm.gpus_per_node = -1; }},
        {"partition", [](Target& t) { t.slurm.partition = QStringLiteral("gpu;rm"); }},
        {"account", [](Target& t) { t.slurm.account = QStringLiteral("my account"); }},
        {"time_limit", [](Target& t) { t.slurm.time_limit = QStringLiteral("2h"); }},
        {"time_limit", [](Target& t) { t.slurm.time_limit = QStringLiteral("1-2:3:4:5"); }},
        {"extra_lines", [](Target& t) { t.slurm.extra_lines << QStringLiteral("--a\n#SBATCH"); }},
    };
    for (const Case& c : cases) {
      Target target = fullSlurmTarget(identity_);
      c.spoil(target);
      const QStringList problems = target.validate();
      const QString field = QString::fromLatin1(c.field);
      QVERIFY2(problems.size() == 1 && problems[0].startsWith(field + QStringLiteral(": ")),
               qPrintable(field + QStringLiteral(" -> ") + problems.join(" | ")));
    }
  }

  void validateAcceptsGoodValues() {
    Target slurm = fullSlurmTarget(identity_);
    slurm.ssh = {};      // sbatch on this machine
    slurm.ssh.port = 0;  // not used without a host
    QVERIFY2(slurm.validate().isEmpty(), qPrintable(slurm.validate().join('\n')));
    for (const char* time : {"30", "30:00", "4:00:00", "2-12", "2-12:30", "2-12:30:00", ""}) {
      slurm.slurm.time_limit = QString::fromLatin1(time);
      QVERIFY2(slurm.validate().isEmpty(), time);
    }
    Target ssh = sshTarget(QStringLiteral("box"));
    ssh.runs_root = QStringLiteral("/scratch/runs");
    ssh.ssh.identity_file = identity_;
    ssh.slurm.nodes = 0;  // Slurm settings mean nothing to an SSH host
    QVERIFY2(ssh.validate().isEmpty(), qPrintable(ssh.validate().join('\n')));
  }

  void storePersistsAcrossInstances() {
    {
      TargetStore store;
      QSignalSpy changed(&store, &TargetStore::changed);
      QCOMPARE(store.targets().size(), 1);
      QVERIFY(store.targets()[0] == Target::local());
      QCOMPARE(store.currentName(), QStringLiteral("local"));
      QVERIFY(store.add(sshTarget(QStringLiteral("box"))).isEmpty());
      QVERIFY(store.add(fullSlurmTarget(identity_)).isEmpty());
      QCOMPARE(changed.count(), 2);
      QVERIFY(store.setCurrentName(QStringLiteral("cluster")));
      QVERIFY(!store.setCurrentName(QStringLiteral("nowhere")));
    }
    TargetStore again;
    const QList<Target> targets = again.targets();
    QCOMPARE(targets.size(), 3);
    QCOMPARE(targets[0].name, QStringLiteral("local"));
    QVERIFY(targets[1] == sshTarget(QStringLiteral("box")));
    QVERIFY(targets[2] == fullSlurmTarget(identity_));
    QCOMPARE(again.currentName(), QStringLiteral("cluster"));
    QVERIFY(again.find(QStringLiteral("cluster")).has_value());
    QVERIFY(!again.find(QStringLiteral("nowhere")).has_value());
  }

  void storeRefusesDuplicatesAndLocal() {
    TargetStore store;
    QSignalSpy changed(&store, &TargetStore::changed);
    QVERIFY(store.add(sshTarget(QStringLiteral("box"))).isEmpty());
    const QStringList duplicate = store.add(sshTarget(QStringLiteral("box")));
    QVERIFY(!duplicate.isEmpty() && duplicate[0].startsWith(QStringLiteral("name: ")));
    QVERIFY(!store.add(sshTarget(QStringLiteral("local"))).isEmpty());
    QVERIFY(!store.add(Target::local()).isEmpty());
    QVERIFY(!store.remove(QStringLiteral("local")).isEmpty());
    QVERIFY(!store.replace(QStringLiteral("local"), sshTarget(QStringLiteral("x"))).isEmpty());
    Target bad = sshTarget(QStringLiteral("bad"));
    bad.ssh.port = 0;
    QVERIFY(store.add(bad).join(' ').contains(QStringLiteral("port: ")));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(store.targets().size(), 2);

    // Renaming the current target keeps it current; removing it falls back to local.
    QVERIFY(store.setCurrentName(QStringLiteral("box")));
    QVERIFY(store.replace(QStringLiteral("box"), sshTarget(QStringLiteral("box2"))).isEmpty());
    QCOMPARE(store.currentName(), QStringLiteral("box2"));
    QVERIFY(store.add(sshTarget(QStringLiteral("other"))).isEmpty());
    QVERIFY(!store.replace(QStringLiteral("other"), sshTarget(QStringLiteral("box2"))).isEmpty());
    QVERIFY(store.remove(QStringLiteral("box2")).isEmpty());
    QCOMPARE(store.currentName(), QStringLiteral("local"));
    QCOMPARE(TargetStore().targets().size(), 2);
  }
};

QTEST_GUILESS_MAIN(TestTargets)
#include "test_targets.moc"
