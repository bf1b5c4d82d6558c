// moe-studio: the MoE Studio desktop app. `moe-studio [CONFIG.json] [--run]` opens an experiment
// (without one, the experiment file open when the app last closed, else the fashion-mnist preset)
// and, with --run, launches it at once.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QTimer>

#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "window/main_window.h"

namespace {

// The experiment file the last session had open, if it still exists.
bool reopenLastExperiment(moe::ui::ExperimentFileActions* files) {
  const QString last = QSettings().value("experiment/last").toString();
  return !last.isEmpty() && QFileInfo::exists(last) && files->openFile(last);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("MoE Studio");
  QApplication::setApplicationName("moe-studio");
  QApplication::setApplicationDisplayName("MoE Studio");
  QApplication::setWindowIcon(QIcon(":/icons/moe-studio.svg"));

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
