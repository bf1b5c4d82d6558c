#include "base/remote/target.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include "base/remote/remote_command.h"

namespace moe::ui {

namespace {

bool hasSpaceOrControl(const QString& text) {
  for (const QChar c : text) {
    if (c.isSpace()) return true;
  }
  return hasControlCharacter(text);
}

// A host or user name goes to ssh as one word: no spaces, nothing ssh could read as an option.
QString sshWordProblem(const QString& field, const QString& word) {
  if (hasSpaceOrControl(word)) {
    return field + QStringLiteral(": no spaces or control characters allowed");
  }
  if (word.startsWith(u'-')) return field + QStringLiteral(": may not start with '-'");
  return {};
}

// ssh expands a leading ~/ in an identity file itself; the check looks where ssh will.
QString localPath(const QString& path) {
  if (path.startsWith(QStringLiteral("~/"))) return QDir::home().filePath(path.mid(2));
  return path;
}

// Partition and account names: what Slurm's own names use.
bool isSlurmName(const QString& name) {
  static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9._-]*$"));
  return pattern.match(name).hasMatch();
}

// sbatch --time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
bool isSlurmTime(const QString& time) {
  static const QRegularExpression pattern(
      QStringLiteral(R"(^(\d+(:\d+){0,2}|\d+-\d+(:\d+){0,2})$)"));
  return pattern.match(time).hasMatch();
}

void appendSshProblems(const SshEndpoint& ssh, QStringList& problems) {
  if (const QString p = sshWordProblem(QStringLiteral("host"), ssh.host); !p.isEmpty()) {
    problems << p;
  }
  if (const QString p = sshWordProblem(QStringLiteral("user"), ssh.user); !p.isEmpty()) {
    problems << p;
  }
  if (ssh.port < 1 || ssh.port > 65535) {
    problems << QStringLiteral("port: must be a number from 1 to 65535");
  }
  if (!ssh.identity_file.isEmpty() && !QFileInfo(localPath(ssh.identity_file)).isFile()) {
    problems
        << QStringLiteral("identity_file: no such file on this machine: %1").arg(ssh.identity_file);
  }
  // ssh reads UserKnownHostsFile as a space-separated list.
  if (hasSpaceOrControl(ssh.known_hosts_file)) {
    problems << QStringLiteral("known_hosts_file: no spaces or control characters allowed");
  }
}

void appendSlurmProblems(const SlurmOptions& slurm, QStringList& problems) {
  if (slurm.nodes < 1) problems << QStringLiteral("nodes: at least 1");
  if (slurm.tasks_per_node < 1) problems << QStringLiteral("tasks_per_node: at least 1");
  if (slurm.gpus_per_node < 0) problems << QStringLiteral("gpus_per_node: 0 or more");
  if (!isSlurmName(slurm.partition)) {
    problems << QStringLiteral("partition: only letters, digits, '.', '_' and '-' allowed");
  }
  if (!isSlurmName(slurm.account)) {
    problems << QStringLiteral("account: only letters, digits, '.', '_' and '-' allowed");
  }
  if (!slurm.time_limit.isEmpty() && !isSlurmTime(slurm.time_limit)) {
    problems << QStringLiteral(
        "time_limit: not an sbatch time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)");
  }
  for (int i = 0; i < slurm.extra_lines.size(); ++i) {
    if (hasControlCharacter(slurm.extra_lines[i])) {
      problems
          << QStringLiteral("extra_lines: line %1 has a newline or control character").arg(i + 1);
    }
  }
}

QJsonArray toArray(const QStringList& lines) {
  return QJsonArray::fromStringList(lines);
}

QStringList toStringList(const QJsonValue& value) {
  QStringList lines;
  for (const QJsonValue& line : value.toArray()) lines << line.toString();
  return lines;
}

}  // namespace

QString SshEndpoint::destination() const {
  return user.isEmpty() ? host : user + u'@' + host;
}

QString SshEndpoint::where() const {
  if (isLocal()) return QStringLiteral("this machine");
  return QStringLiteral("%1 (port %2)").arg(destination()).arg(port);
}

Target Target::local() {
  Target target;
  target.kind = Kind::Local;
  target.name = QStringLiteral("local");
  return target;
}

QString Target::kindName(Kind kind) {
  switch (kind) {
    case Kind::Local:
      return QStringLiteral("local");
    case Kind::Ssh:
      return QStringLiteral("ssh");
    case Kind::Slurm:
      return QStringLiteral("slurm");
  }
  return {};
}

QStringList Target::validate() const {
  QStringList problems;
  if (name.trimmed().isEmpty()) {
    problems << QStringLiteral("name: required");
  } else if (isRemote() && name == QStringLiteral("local")) {
    problems << QStringLiteral("name: \"local\" is this machine; choose another name");
  } else if (hasControlCharacter(name)) {
    problems << QStringLiteral("name: no control characters allowed");
  }
  if (!isRemote()) return problems;

  if (kind == Kind::Ssh && ssh.host.isEmpty()) {
    problems << QStringLiteral("host: required for an SSH target");
  }
  if (!ssh.isLocal()) appendSshProblems(ssh, problems);
  if (const QString p = remotePathProblem(runs_root); !p.isEmpty()) {
    problems << QStringLiteral("runs_root: ") + p;
  }
  if (hasControlCharacter(train_program)) {
    problems << QStringLiteral("train_program: no newlines or control characters allowed");
  }
  for (int i = 0; i < setup_commands.size(); ++i) {
    if (setup_commands[i].contains(QChar(0))) {
      problems << QStringLiteral("setup_commands: line %1 has a NUL character").arg(i + 1);
    }
  }
  if (kind == Kind::Slurm) appendSlurmProblems(slurm, problems);
  return problems;
}

QJsonObject Target::toJson() const {
  const QJsonObject batch{
      {"partition", slurm.partition},
      {"nodes", slurm.nodes},
      {"tasks_per_node", slurm.tasks_per_node},
      {"gpus_per_node", slurm.gpus_per_node},
      {"time_limit", slurm.time_limit},
      {"account", slurm.account},
      {"extra_lines", toArray(slurm.extra_lines)},
  };
  return QJsonObject{
      {"kind", kindName(kind)},
      {"name", name},
      {"host", ssh.host},
      {"user", ssh.user},
      {"port", ssh.port},
      {"identity_file", ssh.identity_file},
      {"accept_new_host_key", ssh.accept_new_host_key},
      {"known_hosts_file", ssh.known_hosts_file},
      {"train_program", train_program},
      {"runs_root", runs_root},
      {"setup_commands", toArray(setup_commands)},
      {"slurm", batch},
  };
}

Target Target::fromJson(const QJsonObject& json) {
  Target t;
  const QString kind = json.value("kind").toString();
  if (kind == kindName(Kind::Ssh)) t.kind = Kind::Ssh;
  if (kind == kindName(Kind::Slurm)) t.kind = Kind::Slurm;
  t.name = json.value("name").toString();
  t.ssh.host = json.value("host").toString();
  t.ssh.user = json.value("user").toString();
  t.ssh.port = json.value("port").toInt(t.ssh.port);
  t.ssh.identity_file = json.value("identity_file").toString();
  t.ssh.accept_new_host_key = json.value("accept_new_host_key").toBool(false);
  t.ssh.known_hosts_file = json.value("known_hosts_file").toString();
  t.train_program = json.value("train_program").toString();
  t.runs_root = json.value("runs_root").toString();
  t.setup_commands = toStringList(json.value("setup_commands"));
  const QJsonObject batch = json.value("slurm").toObject();
  t.slurm.partition = batch.value("partition").toString();
  t.slurm.nodes = batch.value("nodes").toInt(t.slurm.nodes);
  t.slurm.tasks_per_node = batch.value("tasks_per_node").toInt(t.slurm.tasks_per_node);
  t.slurm.gpus_per_node = batch.value("gpus_per_node").toInt(t.slurm.gpus_per_node);
  t.slurm.time_limit = batch.value("time_limit").toString();
  t.slurm.account = batch.value("account").toString();
  t.slurm.extra_lines = toStringList(batch.value("extra_lines"));
  return t;
}

bool operator==(const SshEndpoint& a, const SshEndpoint& b) {
  return a.host == b.host && a.user == b.user && a.port == b.port &&
         a.identity_file == b.identity_file && a.accept_new_host_key == b.accept_new_host_key &&
         a.known_hosts_file == b.known_hosts_file;
}

bool operator==(const SlurmOptions& a, const SlurmOptions& b) {
  return a.partition == b.partition && a.nodes == b.nodes && a.tasks_per_node == b.tasks_per_node &&
         a.gpus_per_node == b.gpus_per_node && a.time_limit == b.time_limit &&
         a.account == b.account && a.extra_lines == b.extra_lines;
}

bool operator==(const Target& a, const Target& b) {
  return a.kind == b.kind && a.name == b.name && a.ssh == b.ssh &&
         a.train_program == b.train_program && a.runs_root == b.runs_root &&
         a.setup_commands == b.setup_commands && a.slurm == b.slurm;
}

}  // namespace moe::ui
