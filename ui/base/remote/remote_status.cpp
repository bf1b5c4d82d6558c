#include "base/remote/remote_status.h"

#include <QRegularExpression>

namespace moe::ui {

namespace {

QString field(const QString& record, const QString& key) {
  const QRegularExpression re(QStringLiteral("(?:^|\\s)%1=(\\S*)").arg(key));
  const QRegularExpressionMatch m = re.match(record);
  return m.hasMatch() ? m.captured(1) : QString();
}

}  // namespace

RemoteStatus RemoteStatus::parse(const QByteArray& out) {
  RemoteStatus s;
  const QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'));
  bool in_tail = false;
  for (const QString& line : lines) {
    if (in_tail) {
      s.stderr_tail << line;
      continue;
    }
    if (line == QLatin1String("---")) {
      in_tail = true;
    } else if (line == QLatin1String("running")) {
      s.process = Process::Running;
    } else if (line == QLatin1String("checkpoint")) {
      s.has_checkpoint = true;
    } else if (line == QLatin1String("gone")) {
      s.process = Process::Gone;
    } else if (line == QLatin1String("missing")) {
      s.process = Process::Missing;
    } else if (line.startsWith(QLatin1String("exited "))) {
      bool ok = false;
      const int code = line.mid(7).trimmed().toInt(&ok);
      if (ok) {
        s.process = Process::Exited;
        s.exit_code = code;
      }
    } else if (line.startsWith(QLatin1String("metrics "))) {
      s.metrics_bytes = line.mid(8).trimmed().toLongLong();
    } else if (line.startsWith(QLatin1String("free "))) {
      bool ok = false;
      const qint64 kib = line.mid(5).trimmed().toLongLong(&ok);
      if (ok) s.free_kib = kib;
    } else if (line.startsWith(QLatin1String("queue "))) {
      s.queue_state = line.mid(6).section(QLatin1Char('|'), 0, 0).trimmed();
      s.queue_reason = line.mid(6).section(QLatin1Char('|'), 1).trimmed();
    } else if (line.startsWith(QLatin1String("scontrol "))) {
      s.queue_state = field(line, QStringLiteral("JobState"));
      s.queue_reason = field(line, QStringLiteral("Reason"));
    }
  }
  while (!s.stderr_tail.isEmpty() && s.stderr_tail.last().isEmpty()) s.stderr_tail.removeLast();
  if (s.queue_reason == QLatin1String("None") || s.queue_reason == QLatin1String("(null)"))
    s.queue_reason.clear();
  return s;
}

bool RemoteStatus::isQueued() const {
  return queue_state == QLatin1String("PENDING") || queue_state == QLatin1String("CONFIGURING") ||
         queue_state == QLatin1String("REQUEUED") || queue_state == QLatin1String("SUSPENDED");
}

bool RemoteStatus::queueHasEnded() const {
  static const QStringList kEnded{
      QStringLiteral("COMPLETED"),    QStringLiteral("FAILED"),    QStringLiteral("CANCELLED"),
      QStringLiteral("TIMEOUT"),      QStringLiteral("NODE_FAIL"), QStringLiteral("OUT_OF_MEMORY"),
      QStringLiteral("PREEMPTED"),    QStringLiteral("BOOT_FAIL"), QStringLiteral("DEADLINE"),
      QStringLiteral("SPECIAL_EXIT"), QStringLiteral("REVOKED")};
  return kEnded.contains(queue_state);
}

bool RemoteStatus::hasEnded() const {
  return process == Process::Exited || process == Process::Gone || process == Process::Missing ||
         queueHasEnded();
}

QString RemoteStatus::queueFailureText() const {
  if (queue_state == QLatin1String("TIMEOUT"))
    return QStringLiteral("Slurm stopped the job at its time limit");
  if (queue_state == QLatin1String("NODE_FAIL"))
    return QStringLiteral("Slurm reports that a node of the job failed");
  if (queue_state == QLatin1String("OUT_OF_MEMORY"))
    return QStringLiteral("Slurm stopped the job: out of memory");
  if (queue_state == QLatin1String("PREEMPTED")) return QStringLiteral("Slurm preempted the job");
  if (queue_state == QLatin1String("BOOT_FAIL") || queue_state == QLatin1String("DEADLINE"))
    return QStringLiteral("Slurm ended the job: %1").arg(queue_state);
  return {};
}

}  // namespace moe::ui
