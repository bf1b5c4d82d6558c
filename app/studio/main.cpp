// moe-studio: the MoE Studio desktop app. `moe-studio [CONFIG.json] [--run]` opens an experiment
// (without one, the experiment file open when the app last closed, else the fashion-mnist preset)
// and, with --run, launches it at once. `moe-studio --export-report RUN_DIR OUT.html|OUT.pdf` and
// the other export commands (ui/report/report_cli.h) write files and exit without a window.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QTimer>

#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "report/report_cli.h"
#include "window/main_window.h"

namespace {

// The experiment file the last session had open, if it still exists.
bool reopenLastExperiment(moe::ui::ExperimentFileActions* files) {
  const QString last = QSettings().value("experiment/last").toString();
  return !last.isEmpty() && QFileInfo::exists(last) && files->openFile(last);
}

}  // namespace

int main(int argc, char** argv) {
  QStringList arguments;
  for (int i = 1; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  const bool exporting = moe::ui::isExportCommand(arguments);
  // An export draws its charts offscreen: no display needed (scripts, CI).
  if (exporting && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("MoE Studio");
  QApplication::setApplicationName("moe-studio");
  QApplication::setApplicationDisplayName("MoE Studio");
  QApplication::setWindowIcon(QIcon(":/icons/moe-studio.svg"));
  if (exporting) return moe::ui::runExportCommand(arguments);

  QCommandLineParser parser;
  parser.setApplicationDescription("Train Mixture-of-Experts models and watch their routing live");
  parser.addHelpOption();
  parser.addPositionalArgument("config", "A RunConfig JSON file to open");
  QCommandLineOption run_option("run", "Launch the experiment right away");
  parser.addOption(run_option);
  parser.process(app);

  moe::ui::MainWindow window;
  auto* files = window.editor()->fileActions();
  const QStringList args = parser.positionalArguments();
  if (!args.isEmpty()) {
    files->openFile(args.first());
  } else if (!reopenLastExperiment(files)) {
    files->openPreset("fashion-mnist");
  }
  window.show();
  if (parser.isSet(run_option))
    QTimer::singleShot(0, &window, [&window] { window.runExperiment(); });
  return app.exec();
}
