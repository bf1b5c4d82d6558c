#include "base/run/launch_spec.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "base/run/run_files.h"
#include "protocol/config_overrides.h"
#include "protocol/run_config.h"

namespace moe::ui {

QStringList LaunchSpec::arguments() const {
  QStringList args{QStringLiteral("run")};
  if (resume) {
    args << QStringLiteral("--resume") << run_dir;
  } else {
    args << QStringLiteral("--config") << config_file;
    if (!run_dir.isEmpty()) {
      args << QStringLiteral("--run-dir") << run_dir;
    } else if (!runs_root.isEmpty()) {
      args << QStringLiteral("--runs-root") << runs_root;
    }
    if (!init_from.isEmpty()) args << QStringLiteral("--init-from") << init_from;
  }
  for (const QString& assignment : overrides) args << QStringLiteral("--set") << assignment;
  // Several ranks on this machine: the launcher starts them, each with the same `run` arguments.
  const std::optional<protocol::RunConfig> c = config();
  if (!c || c->parallel.nproc <= 1) return args;
  return QStringList{QStringLiteral("launch"), QStringLiteral("--nproc-per-node"),
                     QString::number(c->parallel.nproc), QStringLiteral("--")} +
         args;
}

std::optional<protocol::RunConfig> LaunchSpec::config() const {
  const QString file = resume ? runFile(run_dir, run_layout::kConfig) : config_file;
  try {
    nlohmann::json json = protocol::read_config_json_file(file.toStdString());
    std::vector<std::string> assignments;
    for (const QString& a : overrides) assignments.push_back(a.toStdString());
    protocol::apply_overrides(json, assignments);
    std::vector<protocol::ConfigProblem> problems;
    return protocol::parse_config(json, &problems);
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable or a bad override: moe-train reports it
  }
}

qint64 LaunchSpec::expectedSteps() const {
  const std::optional<protocol::RunConfig> c = config();
  return c ? c->train.steps : 0;
}

QString defaultTrainProgram() {
  const QString name = QStringLiteral("moe-train");
  const QString app_dir = QCoreApplication::applicationDirPath();
  for (const QString& candidate :
       {QDir(app_dir).filePath(name), QDir(app_dir).filePath(QStringLiteral("../train/") + name)}) {
    const QFileInfo info(candidate);
    if (info.isFile() && info.isExecutable()) return info.canonicalFilePath();
  }
  const QString on_path = QStandardPaths::findExecutable(name);
  return on_path.isEmpty() ? name : on_path;
}

}  // namespace moe::ui
