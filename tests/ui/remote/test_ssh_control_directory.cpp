// The directory of ssh's shared-connection sockets: private to this user, never one another user
// placed at the predictable path (an open mode, a link, another owner), so that nobody else can
// reach the sockets and speak on this user's connections.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include "base/remote/ssh_command.h"

using namespace moe::ui;

namespace {

mode_t modeOf(const QString& path) {
  struct stat st {};
  if (::lstat(QFile::encodeName(path).constData(), &st) != 0) return 0;
  return st.st_mode & 0777;
}

}  // namespace

class TestSshControlDirectory : public QObject {
  Q_OBJECT

 private slots:
  void aNewDirectoryIsMadePrivate() {
    QTemporaryDir base;
    const QString dir = privateDirectory(base.path(), "moe-ssh-test");
    QCOMPARE(dir, base.path() + "/moe-ssh-test");
    QCOMPARE(modeOf(dir), mode_t{0700});
    QCOMPARE(privateDirectory(base.path(), "moe-ssh-test"), dir);  // found again: still fine
  }

  void anOpenDirectoryIsNotUsed() {
    QTemporaryDir base;
    const QString placed = base.path() + "/moe-ssh-test";
    QVERIFY(QDir().mkdir(placed));
    QVERIFY(::chmod(QFile::encodeName(placed).constData(), 0777) == 0);
    const QString dir = privateDirectory(base.path(), "moe-ssh-test");
    QVERIFY(dir != placed);
    QVERIFY(dir.startsWith(placed + "-"));
    QCOMPARE(modeOf(dir), mode_t{0700});
  }

  void aLinkIsNotFollowed() {
    QTemporaryDir base, elsewhere;
    const QString placed = base.path() + "/moe-ssh-test";
    QVERIFY(::chmod(QFile::encodeName(elsewhere.path()).constData(), 0700) == 0);
    QVERIFY(QFile::link(elsewhere.path(), placed));
    const QString dir = privateDirectory(base.path(), "moe-ssh-test");
    QVERIFY(dir != placed);
    QVERIFY(!dir.startsWith(elsewhere.path()));
  }

  void anotherUsersDirectoryIsNotUsed() {
    if (::geteuid() != 0) QSKIP("giving a directory to another user needs root");
    QTemporaryDir base;
    const QString placed = base.path() + "/moe-ssh-test";
    QVERIFY(QDir().mkdir(placed));
    QVERIFY(::chmod(QFile::encodeName(placed).constData(), 0700) == 0);
    QVERIFY(::chown(QFile::encodeName(placed).constData(), 65534, 65534) == 0);  // nobody
    const QString dir = privateDirectory(base.path(), "moe-ssh-test");
    QVERIFY(dir != placed);
    QCOMPARE(modeOf(dir), mode_t{0700});
  }

  void theSocketsGoInAPrivateDirectory() {
    const QString dir = sshControlDirectory();
    QVERIFY(!dir.isEmpty());
    QCOMPARE(modeOf(dir), mode_t{0700});
    QVERIFY(sshOptions(SshEndpoint{}).contains("ControlPath=" + dir + "/%C"));
  }
};

QTEST_GUILESS_MAIN(TestSshControlDirectory)
#include "test_ssh_control_directory.moc"
