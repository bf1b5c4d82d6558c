// saveWhole and commitWhole on a disk that fills: the old file stays as it was, the reason is
// the system's, and no temporary file is left behind.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include "base/storage/whole_file.h"

using moe::ui::commitWhole;
using moe::ui::saveWhole;

class TestWholeFile : public QObject {
  Q_OBJECT

  static QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  }

 private slots:
  void replacesTheFileWhole() {
    QTemporaryDir dir;
    const QString path = dir.filePath("record.json");
    QVERIFY(saveWhole(path, "first"));
    QVERIFY(saveWhole(path, "second, longer"));
    QCOMPARE(readAll(path), QByteArray("second, longer"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
  }

  void aMissingDirectoryIsAReason() {
    QString why;
    QVERIFY(!saveWhole("/nonexistent-moe-dir/record.json", "x", &why));
    QVERIFY(!why.isEmpty());
  }

  // Qt 6.4's commit() alone reports success here and leaves an empty file.
  void aFullDiskKeepsTheOldFile() {
    if (geteuid() != 0) QSKIP("mounting a small tmpfs needs root (CI runs as root)");
    QTemporaryDir dir;
    QCOMPARE(QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=64k", "tmpfs", dir.path()}), 0);
    const auto unmount = qScopeGuard([&] { QProcess::execute("umount", {"-l", dir.path()}); });
    const QString path = dir.filePath("record.json");
    QVERIFY(saveWhole(path, "the record"));
    // Fill the disk.
    QFile fill(dir.filePath("fill"));
    QVERIFY(fill.open(QIODevice::WriteOnly));
    const QByteArray block(4096, 'x');
    while (fill.write(block) == block.size() && fill.flush()) {
    }
    fill.close();
    QString why;
    QVERIFY(!saveWhole(path, QByteArray(8192, 'y'), &why));
    QVERIFY2(why.contains("space"), qPrintable(why));
    QCOMPARE(readAll(path), QByteArray("the record"));
    // The same through commitWhole, for writers that stream.
    QSaveFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(8192, 'z'));
    QVERIFY(!commitWhole(file, &why));
    QCOMPARE(readAll(path), QByteArray("the record"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);  // and fill
  }
};

QTEST_GUILESS_MAIN(TestWholeFile)
#include "test_whole_file.moc"
