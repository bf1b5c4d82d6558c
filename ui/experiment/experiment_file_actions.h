// ExperimentFileActions: New, Open, Save, Save As, New from Preset and Open Recent for an
// ExperimentDocument, as QActions and menus a main window can put in its menu bar and the editor
// in its tool bar. Owns the file dialogs, the unsaved-changes question and the recent-files list.
#pragma once

#include <QObject>
#include <QString>

#include "base/experiment/preset_library.h"

class QAction;
class QMenu;
class QWidget;

namespace moe::ui {

class ExperimentDocument;
class RecentFiles;

class ExperimentFileActions : public QObject {
  Q_OBJECT

 public:
  // Dialogs open over `window`; the actions and menus are its children.
  ExperimentFileActions(ExperimentDocument* document, QWidget* window);

  QAction* newAction() const { return new_; }
  QAction* openAction() const { return open_; }
  QAction* saveAction() const { return save_; }
  QAction* saveAsAction() const { return save_as_; }
  QMenu* presetMenu() const { return presets_menu_; }
  QMenu* recentMenu() const { return recent_menu_; }
  RecentFiles* recentFiles() const { return recent_; }
  const PresetLibrary& presetLibrary() const { return library_; }
  void setPresetLibrary(const PresetLibrary& library);

  // Each reports failures in a message box and returns false; the open ones first offer to save
  // unsaved changes (and do nothing if the user cancels).
  bool openFile(const QString& path);
  bool openPreset(const QString& name);
  bool save();
  bool saveAs();
  // Asks whether to save unsaved changes: true when it is fine to discard the document now.
  bool maybeSave();

 signals:
  // A one-line outcome ("Saved fashion-mnist.json") for a status bar.
  void message(const QString& text);

 private:
  void newDocument();
  void chooseAndOpen();
  bool load(const QString& path);
  bool saveTo(const QString& path);
  void rebuildPresetMenu();
  void rebuildRecentMenu();
  QString dialogFolder() const;

  ExperimentDocument* document_;
  QWidget* window_;
  PresetLibrary library_;
  RecentFiles* recent_;
  QAction *new_, *open_, *save_, *save_as_;
  QMenu *presets_menu_, *recent_menu_;
};

}  // namespace moe::ui
