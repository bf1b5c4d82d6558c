// Config + command lines as JSON (config_export.h).
#include "base/report/config_export.h"

#include <QDir>
#include <QFileInfo>

#include <vector>

#include "base/report/command_exports.h"
#include "base/report/run_report.h"
#include "base/run/run_files.h"
#include "base/storage/whole_file.h"
#include "protocol/run_config.h"

namespace moe::ui {

nlohmann::json configExportJson(const nlohmann::json& config, const QString& run_id,
                                const QString& config_file) {
  nlohmann::json out = {{"run_id", run_id.toStdString()},
                        {"config_file", config_file.toStdString()},
                        {"config", config},
                        {"commands", nlohmann::json::array()}};
  std::vector<protocol::ConfigProblem> problems;
  const protocol::RunConfig parsed = protocol::parse_config(config, &problems);
  if (!problems.empty()) {
    out["commands_error"] = protocol::format_problem(problems.front());
    return out;
  }
  for (const ExportedCommand& c : exportedCommands(config_file, parsed, defaultSlurmTarget())) {
    if (c.kind == ExportedCommand::Kind::SbatchScript) continue;
    out["commands"].push_back({{"title", c.title.toStdString()},
                               {"note", c.note.toStdString()},
                               {"command", c.text.toStdString()}});
  }
  return out;
}

bool exportRunConfig(const QString& run_dir, const QString& out_path, QString* error) {
  RunReport report;
  if (!loadRunReport(run_dir, &report, error)) return false;
  const nlohmann::json json =
      configExportJson(report.config, report.run_id, runFile(report.run_dir, run_layout::kConfig));
  QString why;
  if (!saveWhole(out_path, QByteArray::fromStdString(json.dump(2) + "\n"), &why)) {
    *error = out_path + QStringLiteral(": ") + why;
    return false;
  }
  return true;
}

}  // namespace moe::ui
