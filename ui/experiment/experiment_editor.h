// ExperimentEditor: the experiment page of moe-studio. A tool bar (new, presets, open, recent,
// save), the form over every key on the left, and on the right the live estimates, the JSON view
// and the problem list, all observing one ExperimentDocument.
#pragma once

#include <QWidget>

class QLabel;
class QListView;
class QSplitter;
class QToolBar;

namespace moe::ui {

class ConfigForm;
class EstimatesPanel;
class ExperimentDocument;
class ExperimentFileActions;
class JsonEditor;
class ProblemListModel;

class ExperimentEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ExperimentEditor(QWidget* parent = nullptr);

  ExperimentDocument* document() const { return document_; }
  // New / Open / Save / Save As actions and the preset and recent menus, for the main window's
  // menu bar; also ask maybeSave() from there before closing.
  ExperimentFileActions* fileActions() const { return actions_; }
  ConfigForm* form() const { return form_; }
  JsonEditor* jsonEditor() const { return json_; }
  EstimatesPanel* estimatesPanel() const { return estimates_; }
  QListView* problemView() const { return problem_view_; }
  // The horizontal splitter (form | side), for saving and restoring its state.
  QSplitter* splitter() const { return splitter_; }
  // Shown while the document's runs start from a model's weights (ExperimentDocument::initFrom).
  QLabel* initFromNote() const { return init_note_; }

 private:
  QToolBar* createToolBar();
  QWidget* createSidePane();
  void showStatus();
  void activateProblem(const QModelIndex& index);

  ExperimentDocument* document_;
  ExperimentFileActions* actions_;
  ConfigForm* form_;
  JsonEditor* json_;
  EstimatesPanel* estimates_;
  ProblemListModel* problems_;
  QListView* problem_view_;
  QSplitter* splitter_;
  QLabel* title_;
  QLabel* verdict_;
  QLabel* no_problems_;
  QLabel* init_note_;
};

}  // namespace moe::ui
