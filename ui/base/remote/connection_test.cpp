// ConnectionTest: one probe script through RemoteChannel, its key=value lines read into a report.
#include "base/remote/connection_test.h"

#include <QLocale>
#include <QMap>
#include <QStringList>

#include "base/remote/remote_channel.h"

namespace moe::ui {

namespace {

// $1: the train program ("" for moe-train on the PATH), $2: the runs root; either may start with
// ~/ (the remote home). Values only ever arrive as "$1" "$2": nothing is interpolated.
const char kProbeScript[] = R"SH(prog=${1:-moe-train}
root=$2
case $prog in "~/"*) prog=$HOME/${prog#??} ;; esac
case $root in "~/"*) root=$HOME/${root#??} ;; "~") root=$HOME ;; "") root=$HOME ;; esac
printf 'runs_root=%s\n' "$root"
[ -d "$root" ] && printf 'runs_root_exists=1\n'
found=
case $prog in
  */*) [ -f "$prog" ] && [ -x "$prog" ] && found=$prog ;;
  *) found=$(command -v "$prog" 2>/dev/null) || found= ;;
esac
if [ -n "$found" ]; then
  printf 'train=%s\n' "$found"
  if version=$("$found" --version </dev/null 2>&1); then
    printf 'version=%s\n' "$(printf '%s\n' "$version" | head -n 1 | sed 's/^moe-train //')"
    printf 'engine=%s\n' "$(printf '%s\n' "$version" | tail -n +2 | paste -s -d ';' - | sed 's/;/; /g')"
  else
    printf 'version_error=%s\n' "$(printf '%s\n' "$version" | tail -n 1)"
  fi
else
  printf 'train_missing=1\n'
fi
printf 'cores=%s\n' "$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null)"
gpus=0
if command -v nvidia-smi >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
fi
if [ "$gpus" = 0 ] && command -v rocm-smi >/dev/null 2>&1; then
  gpus=$(rocm-smi --showid 2>/dev/null | grep -o '^GPU\[[0-9]*\]' | sort -u | wc -l)
fi
printf 'gpus=%s\n' "$gpus"
dir=$root
while [ ! -d "$dir" ]; do dir=$(dirname -- "$dir"); done
printf 'free_kb=%s\n' "$(df -Pk -- "$dir" 2>/dev/null | awk 'NR == 2 { print $4 }')"
exit 0
)SH";

QString hostName(const Target& target) {
  return target.ssh.isLocal() ? QStringLiteral("this machine") : target.ssh.host;
}

QMap<QString, QString> keyValues(const QByteArray& out) {
  QMap<QString, QString> values;
  for (const QString& line : QString::fromUtf8(out).split(QLatin1Char('\n'))) {
    const qsizetype eq = line.indexOf(QLatin1Char('='));
    if (eq > 0) values.insert(line.left(eq), line.mid(eq + 1).trimmed());
  }
  return values;
}

// The report of a probe that ran (exit status 0): what it printed, and the problems in it.
ConnectionReport reportFromProbe(const Target& target, const QByteArray& out) {
  const QMap<QString, QString> values = keyValues(out);
  ConnectionReport report;
  report.reachable = true;
  report.where = target.ssh.where();
  report.runs_root_abs = values.value(QStringLiteral("runs_root"));
  report.runs_root_exists = values.contains(QStringLiteral("runs_root_exists"));
  report.train_program_abs = values.value(QStringLiteral("train"));
  report.version = values.value(QStringLiteral("version"));
  report.engine = values.value(QStringLiteral("engine"));
  report.cores = values.value(QStringLiteral("cores")).toInt();
  report.gpus = values.value(QStringLiteral("gpus")).toInt();
  bool free_ok = false;
  const qint64 free_kb = values.value(QStringLiteral("free_kb")).toLongLong(&free_ok);
  report.free_bytes = free_ok ? free_kb * 1024 : -1;

  QStringList problems;
  const QString host = hostName(target);
  if (values.contains(QStringLiteral("train_missing"))) {
    problems
        << (target.train_program.isEmpty()
                ? QStringLiteral("moe-train not found on the PATH on %1").arg(host)
                : QStringLiteral("moe-train not found at %1 on %2").arg(target.train_program, host))
        << QStringLiteral(
               "To install it there: in a clone of MoE Studio, with the Python environment "
               "that has PyTorch active, run packaging/install-engine.sh (it builds moe-train "
               "against that torch and puts it beside python; README, \"The engine on a "
               "machine\"), then set this target's moe-train path or PATH.");
  } else if (values.contains(QStringLiteral("version_error"))) {
    problems << QStringLiteral("%1 on %2 does not answer --version: %3")
                    .arg(report.train_program_abs, host,
                         values.value(QStringLiteral("version_error")));
  }
  if (report.free_bytes < 0)
    problems << QStringLiteral("the free space under %1 on %2 could not be read")
                    .arg(report.runs_root_abs, host);
  report.error = problems.join(QLatin1Char('\n'));
  return report;
}

}  // namespace

QString ConnectionReport::summary() const {
  if (!reachable) return QStringLiteral("Not reachable: %1").arg(error);
  const QLocale locale;
  QStringList lines;
  lines << QStringLiteral("Reached %1.").arg(where);
  if (!version.isEmpty())
    lines << QStringLiteral("moe-train %1 at %2").arg(version, train_program_abs);
  if (!engine.isEmpty()) lines << engine;
  lines << QStringLiteral("CPU cores: %1").arg(cores) << QStringLiteral("GPUs: %1").arg(gpus)
        << QStringLiteral("Runs root: %1%2")
               .arg(runs_root_abs,
                    runs_root_exists ? QString() : QStringLiteral(" (made by the first run)"));
  if (free_bytes >= 0)
    lines << QStringLiteral("Free there: %1").arg(locale.formattedDataSize(free_bytes));
  if (!error.isEmpty()) lines << QString() << QStringLiteral("Problems:") << error;
  return lines.join(QLatin1Char('\n'));
}

ConnectionTest::ConnectionTest(QObject* parent) : QObject(parent) {
  timeout_.setSingleShot(true);
  connect(&timeout_, &QTimer::timeout, this, [this] {
    timed_out_ = true;
    if (channel_) channel_->stop();
  });
}

ConnectionTest::~ConnectionTest() {
  abandon();
}

QString ConnectionTest::probeScript() {
  return QString::fromLatin1(kProbeScript);
}

void ConnectionTest::start(const Target& target) {
  abandon();
  target_ = target;
  timed_out_ = false;
  channel_ = new RemoteChannel(target, this);
  connect(channel_, &RemoteChannel::finished, this, &ConnectionTest::onFinished);
  timeout_.start(kTimeoutMs);
  channel_->run(probeScript(), {target.train_program, target.runs_root});
}

void ConnectionTest::abandon() {
  timeout_.stop();
  if (!channel_) return;
  channel_->disconnect(this);
  channel_->stop();
  channel_->deleteLater();
  channel_ = nullptr;
}

void ConnectionTest::onFinished(const RemoteResult& result) {
  timeout_.stop();
  channel_->deleteLater();
  channel_ = nullptr;
  ConnectionReport report;
  report.where = target_.ssh.where();
  if (timed_out_) {
    report.error = QStringLiteral("%1 did not answer within %2 s")
                       .arg(hostName(target_))
                       .arg(kTimeoutMs / 1000);
  } else if (!result.connection_error.isEmpty()) {
    report.error = result.connection_error;
  } else if (result.exit_code != 0) {
    report.reachable = true;
    report.error = QStringLiteral("the connection test failed on %1: %2")
                       .arg(hostName(target_), result.message());
  } else {
    report = reportFromProbe(target_, result.out);
  }
  emit finished(report);
}

}  // namespace moe::ui
