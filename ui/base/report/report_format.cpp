// Report formatting (report_format.h).
#include "base/report/report_format.h"

#include <QObject>

#include <cmath>
#include <vector>

#include "base/report/command_exports.h"
#include "base/report/report_document.h"
#include "protocol/run_config.h"

namespace moe::ui {

QString reportNumber(double value) {
  if (std::isnan(value)) return QStringLiteral("\u2014");
  return QString::number(value, 'g', 5);
}

QString byteText(double bytes) {
  if (!std::isfinite(bytes)) return QStringLiteral("\u2014");
  if (bytes < 1024) return QStringLiteral("%1 B").arg(bytes, 0, 'f', 0);
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  int unit = -1;
  while (bytes >= 1024 && unit < 3) {
    bytes /= 1024;
    ++unit;
  }
  return QStringLiteral("%1 %2").arg(bytes, 0, 'f', 1).arg(QLatin1String(units[unit]));
}

void addCommandLines(ReportDocument* doc, const nlohmann::json& config,
                     const QString& config_file) {
  std::vector<protocol::ConfigProblem> problems;
  const protocol::RunConfig parsed = protocol::parse_config(config, &problems);
  if (!problems.empty()) {
    doc->warning(QObject::tr("The config cannot be read as a RunConfig of this version (%1), so "
                             "there are no command lines for it.")
                     .arg(QString::fromStdString(protocol::format_problem(problems.front()))));
    return;
  }
  for (const ExportedCommand& command :
       exportedCommands(config_file, parsed, defaultSlurmTarget())) {
    if (command.kind == ExportedCommand::Kind::SbatchScript) continue;
    doc->paragraph(command.title + QStringLiteral(": ") + command.note);
    doc->code(command.text);
  }
}

}  // namespace moe::ui
