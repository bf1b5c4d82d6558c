// moe-report: MoE Studio's reports and exports for scripts and CI, without the desktop app or a
// display (docs/REPORTS.md, "From the command line"):
//   moe-report --export-report RUN_DIR OUT.html|OUT.pdf
//   moe-report --export-comparison OUT.html|OUT.pdf RUN_DIR RUN_DIR...
//   moe-report --export-csv RUN_DIR OUT_DIR
//   moe-report --export-config RUN_DIR OUT.json
// The same commands as `moe-studio --export-*` (ui/report/report_cli.h), built without Widgets.
#include <QGuiApplication>

#include "report/report_cli.h"

int main(int argc, char** argv) {
  QStringList arguments;
  for (int i = 1; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  // The charts are drawn offscreen; fonts need a QGuiApplication, never a display.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  QGuiApplication::setOrganizationName("MoE Studio");
  QGuiApplication::setApplicationName("moe-report");
  // Anything but an export command gets the usage, naming this program, and exit status 2.
  return moe::ui::runExportCommand(arguments);
}
