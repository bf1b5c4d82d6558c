// RemoteTelemetryStream on a file that grows, gets a line cut short, and shrinks back to its last
// whole line (the engine's AppendFile on a full disk): the mirror is the file exactly, each line
// once. The target is this machine (sh runs the scripts), as for a local Slurm cluster.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "base/remote/remote_telemetry_stream.h"
#include "remote_run_support.h"

using moe::test::readAll;
using moe::ui::RemoteTelemetryStream;
using moe::ui::Target;

class TestRemoteTelemetryStream : public QObject {
  Q_OBJECT

  static void append(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::Append));
    QCOMPARE(file.write(bytes), bytes.size());
  }

 private slots:
  void aLineCutBackIsNeverSent() {
    QTemporaryDir dir;
    const QString remote = dir.filePath("metrics.jsonl"), mirror = dir.filePath("mirror.jsonl");
    append(remote, "{\"a\":1}\n{\"b\":2}\n");
    Target target;
    target.kind = Target::Kind::Slurm;  // ssh.host empty: this machine
    RemoteTelemetryStream stream(target, remote, mirror);
    QByteArray seen;
    connect(&stream, &RemoteTelemetryStream::lines, this,
            [&](const QByteArray& bytes) { seen += bytes; });
    stream.start(0);
    QTRY_COMPARE_WITH_TIMEOUT(seen, QByteArray("{\"a\":1}\n{\"b\":2}\n"), 10000);

    // A line, then half of one; the half waits for its newline.
    append(remote, "{\"c\":3}\n{\"half");
    QTRY_COMPARE_WITH_TIMEOUT(stream.offset(), qint64(24), 10000);
    QTest::qWait(600);  // three polls: the half is still not sent
    QCOMPARE(stream.offset(), qint64(24));

    // The engine cuts it back (its write failed) and writes on from there.
    QVERIFY(QFile::resize(remote, 24));
    append(remote, "{\"d\":4}\n");
    QTRY_COMPARE_WITH_TIMEOUT(stream.offset(), qint64(32), 10000);
    QCOMPARE(readAll(mirror), readAll(remote));

    // The run ends: the rest is read and the mirror is whole.
    append(remote, "{\"e\":5}\n");
    QSignalSpy caught_up(&stream, &RemoteTelemetryStream::caughtUp);
    stream.finish();
    QVERIFY(caught_up.wait(10000));
    QCOMPARE(readAll(mirror), readAll(remote));
    QCOMPARE(seen, readAll(remote));
  }
};

QTEST_GUILESS_MAIN(TestRemoteTelemetryStream)
#include "test_remote_telemetry_stream.moc"
