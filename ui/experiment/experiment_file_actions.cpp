#include "experiment/experiment_file_actions.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>

#include "base/experiment/experiment_document.h"
#include "base/experiment/recent_files.h"

namespace moe::ui {
namespace {
const char kFilter[] =
    QT_TRANSLATE_NOOP("ExperimentFileActions", "Experiments (*.json);;All files (*)");
}  // namespace

ExperimentFileActions::ExperimentFileActions(ExperimentDocument* document, QWidget* window)
    : QObject(window), document_(document), window_(window), recent_(new RecentFiles(this)) {
  new_ = new QAction(QIcon::fromTheme("document-new"), tr("&New Experiment"), this);
  new_->setShortcut(QKeySequence::New);
  new_->setToolTip(tr("A new experiment with every key at its default"));
  open_ = new QAction(QIcon::fromTheme("document-open"), tr("&Open…"), this);
  open_->setShortcut(QKeySequence::Open);
  save_ = new QAction(QIcon::fromTheme("document-save"), tr("&Save"), this);
  save_->setShortcut(QKeySequence::Save);
  save_as_ = new QAction(QIcon::fromTheme("document-save-as"), tr("Save &As…"), this);
  save_as_->setShortcut(QKeySequence::SaveAs);
  presets_menu_ = new QMenu(tr("New from &Preset"), window);
  recent_menu_ = new QMenu(tr("Open &Recent"), window);

  connect(new_, &QAction::triggered, this, &ExperimentFileActions::newDocument);
  connect(open_, &QAction::triggered, this, &ExperimentFileActions::chooseAndOpen);
  connect(save_, &QAction::triggered, this, &ExperimentFileActions::save);
  connect(save_as_, &QAction::triggered, this, &ExperimentFileActions::saveAs);
  connect(recent_, &RecentFiles::changed, this, &ExperimentFileActions::rebuildRecentMenu);
  rebuildPresetMenu();
  rebuildRecentMenu();
}

void ExperimentFileActions::setPresetLibrary(const PresetLibrary& library) {
  library_ = library;
  rebuildPresetMenu();
}

void ExperimentFileActions::rebuildPresetMenu() {
  presets_menu_->clear();
  for (const Preset& preset : library_.presets()) {
    QAction* action = presets_menu_->addAction(preset.name);
    action->setToolTip(preset.path);
    const QString name = preset.name;
    connect(action, &QAction::triggered, this, [this, name] { openPreset(name); });
  }
  if (presets_menu_->isEmpty())
    presets_menu_->addAction(tr("(no presets found)"))->setEnabled(false);
}

void ExperimentFileActions::rebuildRecentMenu() {
  recent_menu_->clear();
  const QStringList files = recent_->files();
  for (int i = 0; i < files.size(); ++i) {
    const QString path = files[i];
    // &1 .. &9, &0: keyboard access to the first ten.
    const QString text =
        QStringLiteral("&%1  %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName());
    QAction* action = recent_menu_->addAction(text);
    action->setToolTip(path);
    action->setStatusTip(path);
    connect(action, &QAction::triggered, this, [this, path] { openFile(path); });
  }
  if (!files.isEmpty()) {
    recent_menu_->addSeparator();
    recent_menu_->addAction(tr("Clear List"), recent_, &RecentFiles::clear);
  }
  recent_menu_->setEnabled(!files.isEmpty());
}

void ExperimentFileActions::newDocument() {
  if (!maybeSave()) return;
  document_->reset();
  emit message(tr("New experiment"));
}

void ExperimentFileActions::chooseAndOpen() {
  if (!maybeSave()) return;
  const QString path =
      QFileDialog::getOpenFileName(window_, tr("Open Experiment"), dialogFolder(), tr(kFilter));
  if (!path.isEmpty()) load(path);
}

bool ExperimentFileActions::openFile(const QString& path) {
  return maybeSave() && load(path);
}

bool ExperimentFileActions::load(const QString& path) {
  QString error;
  if (!document_->open(path, &error)) {
    recent_->remove(path);  // gone or unreadable: stop offering it
    QMessageBox::warning(window_, tr("Open Experiment"), error);
    return false;
  }
  recent_->add(path);
  emit message(tr("Opened %1").arg(document_->displayName()));
  return true;
}

bool ExperimentFileActions::openPreset(const QString& name) {
  if (!maybeSave()) return false;
  const QString path = library_.path(name);
  QString error = tr("No preset named \"%1\"").arg(name);
  if (path.isEmpty() || !document_->open(path, &error, /*as_template=*/true)) {
    QMessageBox::warning(window_, tr("Open Preset"), error);
    return false;
  }
  emit message(tr("New experiment from preset %1").arg(name));
  return true;
}

bool ExperimentFileActions::save() {
  if (document_->filePath().isEmpty()) return saveAs();
  return saveTo(document_->filePath());
}

bool ExperimentFileActions::saveAs() {
  const QString name = QString::fromStdString(document_->config().name);
  const QString suggested =
      QDir(dialogFolder()).filePath((name.isEmpty() ? "experiment" : name) + ".json");
  QString path =
      QFileDialog::getSaveFileName(window_, tr("Save Experiment As"), suggested, tr(kFilter));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += ".json";
  return saveTo(path);
}

bool ExperimentFileActions::saveTo(const QString& path) {
  QString error;
  if (!document_->save(path, &error)) {
    QMessageBox::warning(window_, tr("Save Experiment"), error);
    return false;
  }
  recent_->add(path);
  emit message(tr("Saved %1").arg(document_->displayName()));
  return true;
}

bool ExperimentFileActions::maybeSave() {
  if (!document_->isModified()) return true;
  const auto answer = QMessageBox::question(
      window_, tr("Unsaved Changes"),
      tr("Save the changes to %1 first?").arg(document_->displayName()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

QString ExperimentFileActions::dialogFolder() const {
  if (!document_->filePath().isEmpty()) return QFileInfo(document_->filePath()).absolutePath();
  const QStringList recent = recent_->files();
  if (!recent.isEmpty()) return QFileInfo(recent.first()).absolutePath();
  return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

}  // namespace moe::ui
