// File ▸ Import Hugging Face Model…: a model folder read by `moe-train import-hf` into the editor
// (ui/experiment/hf_import_dialog.h), whose runs then start from the folder's weights.
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QTabWidget>

#include "base/experiment/experiment_document.h"
#include "base/run/launch_spec.h"
#include "base/runs/run_manager.h"
#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "experiment/hf_import_dialog.h"
#include "window/main_window.h"

namespace moe::ui {

void MainWindow::chooseHfModel() {
  QSettings settings;
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Import Hugging Face Model"),
                                                        settings.value("import/hf_dir").toString());
  if (dir.isEmpty()) return;
  settings.setValue("import/hf_dir", QFileInfo(dir).path());
  importHfModel(dir);
}

HfImportDialog* MainWindow::importHfModel(const QString& model_dir) {
  if (!editor_->fileActions()->maybeSave()) return nullptr;
  // The moe-train the runs use reads the folder too.
  const QString program =
      runs_->trainProgram().isEmpty() ? defaultTrainProgram() : runs_->trainProgram();
  auto* dialog = new HfImportDialog(editor_->document(), program, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &HfImportDialog::imported, this, [this](bool ok) {
    if (ok) tabs_->setCurrentWidget(editor_);
  });
  dialog->start(model_dir);
  dialog->show();
  return dialog;
}

}  // namespace moe::ui
