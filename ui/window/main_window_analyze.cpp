// MainWindow and the Analyze view: a `moe-train analyze` report opened from a file (File ▸ Open
// Routing Analysis…) or made by the Analyze Routing dialog (Run menu), whose layers' captures open
// in the What-if view.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QTabWidget>

#include "analyze/analyze_dialog.h"
#include "analyze/analyze_view.h"
#include "base/run/launch_spec.h"
#include "base/runs/run_manager.h"
#include "window/main_window.h"

namespace moe::ui {

AnalyzeView* MainWindow::openRoutingAnalysis(const QString& report_path) {
  const QString path = QFileInfo(report_path).absoluteFilePath();
  for (int i = 0; i < tabs_->count(); ++i) {
    auto* open = qobject_cast<AnalyzeView*>(tabs_->widget(i));
    if (open && open->path() == path) {
      tabs_->setCurrentWidget(open);
      return open;
    }
  }
  auto* view = new AnalyzeView(path, tabs_);
  connect(view, &AnalyzeView::whatIfRequested, this,
          [this](const QString& tensors, const QString& title) {
            openWhatIf(tensors, QString(), title);
          });
  addClosableTab(view, tr("Analyze: %1").arg(view->title()));
  return view;
}

void MainWindow::chooseRoutingAnalysis() {
  QSettings settings;
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Open Routing Analysis"), settings.value("analyze/last_dir").toString(),
      tr("moe-train analyze report (*.json);;All files (*)"));
  if (file.isEmpty()) return;
  settings.setValue("analyze/last_dir", QFileInfo(file).absolutePath());
  openRoutingAnalysis(file);
}

AnalyzeDialog* MainWindow::showAnalyzeDialog(const QString& model) {
  // The moe-train the runs use analyses too.
  const QString program =
      runs_->trainProgram().isEmpty() ? defaultTrainProgram() : runs_->trainProgram();
  // Reports of models that are no run go beside the runs.
  const QString analyses = QDir(runsRoot()).filePath(QStringLiteral("../analyses"));
  auto* dialog = new AnalyzeDialog(program, QDir::cleanPath(analyses), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  if (!model.isEmpty()) dialog->setModel(model);
  connect(dialog, &AnalyzeDialog::analysisReady, this,
          [this](const QString& path) { openRoutingAnalysis(path); });
  dialog->show();
  return dialog;
}

}  // namespace moe::ui
