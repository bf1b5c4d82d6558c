// RemoteTelemetryStream: a remote run's metrics.jsonl, streamed to the app from the byte it
// already holds. Only complete lines leave it (lines()), and each is appended to the local copy
// (the mirror) first, so the mirror's size is always the offset to continue from: after a dropped
// connection (it re-attaches by itself, with a growing pause) or an app restart (the next
// RemoteRun starts it at the mirror's size), no line is lost or repeated.
//
// Following polls the target for whole lines by byte offset (remote_scripts::kFollow: a line the
// engine cuts back after a full remote disk is never sent); finish() reads what is left once
// the run has ended, then says caughtUp(). Mirror appends run in order on a worker thread, and a
// line leaves (lines(), offset()) only once it is in the mirror: when an append fails (a full
// local disk), following stops and mirrorFailed() says why; the mirror then ends at a line
// boundary after trimMirror(), and a later start from its size continues exactly.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>

#include "base/remote/remote_channel.h"
#include "base/remote/target.h"

namespace moe::ui {

class RemoteTelemetryStream : public QObject {
  Q_OBJECT

 public:
  static constexpr int kFirstRetryMs = 1000;
  static constexpr int kMaxRetryMs = 30000;

  RemoteTelemetryStream(const Target& target, QString remote_file, QString mirror_file,
                        QObject* parent = nullptr);
  ~RemoteTelemetryStream() override;

  // Bytes of complete lines held: the mirror's size, and where following continues.
  qint64 offset() const { return offset_; }
  bool isFollowing() const { return following_; }

  // Follows from `offset`, which must be the mirror's size (trimMirror()).
  void start(qint64 offset);
  // The run has ended: stop following, read the rest, then caughtUp().
  void finish();
  // Stops following (the remote run goes on).
  void stop();

  // Cuts off a last line that a crash left half-written and returns the size of the complete
  // lines (0 when there is no mirror). Reads the file's tail and may truncate it: call it off the
  // GUI thread.
  static qint64 trimMirror(const QString& mirror_file);

 signals:
  void lines(const QByteArray& complete_lines);
  void connectionLost(const QString& why);  // following stopped; it tries again by itself
  void connectionRestored();
  void caughtUp();
  void mirrorFailed(const QString& why);  // following stopped for good

 private:
  void follow();
  void readRest();
  void take(const QByteArray& bytes);
  void onFollowEnded(const RemoteResult& result);
  void onRestRead(const RemoteResult& result);
  void retryLater(const QString& why);
  void onMirrorWritten(const QByteArray& complete, const QString& error);

  QString remote_file_, mirror_file_;
  RemoteChannel* follow_channel_;
  RemoteChannel* read_channel_;
  QThreadPool mirror_writer_;
  QTimer retry_;
  int retry_ms_ = kFirstRetryMs;
  QByteArray partial_;
  qint64 offset_ = 0;    // bytes in the mirror
  qint64 received_ = 0;  // bytes taken from the target: the mirror's, and those being written
  std::shared_ptr<std::atomic<bool>> mirror_failed_ = std::make_shared<std::atomic<bool>>(false);
  bool following_ = false, finishing_ = false, lost_ = false, done_ = false;
};

}  // namespace moe::ui
