// TargetsDialog: where the user keeps the launch targets. The list on the left holds "local" and
// the saved SSH hosts and Slurm clusters; the form on the right edits the selected one (a new one
// is a draft until saved). Save stores the form through TargetStore when it has no problems;
// "Test connection" probes the form's target (ConnectionTest, asynchronous) and shows the report.
// The panels are built in targets_dialog_panels.cpp.
#pragma once

#include <QDialog>
#include <QString>

#include "base/remote/target.h"

class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QScrollArea;
class QStackedWidget;

namespace moe::ui {

class ConnectionTest;
struct ConnectionReport;
class TargetForm;
class TargetStore;

class TargetsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit TargetsDialog(TargetStore* store, QWidget* parent = nullptr);

  // Selects the target of that name (false when there is none).
  bool select(const QString& name);
  // A new draft of that kind in the form (Ssh or Slurm), selected in the list.
  void addDraft(Target::Kind kind);
  // Saves the form; false, with the problems shown, when it cannot be saved.
  bool save();

  void reject() override;  // asks before unsaved edits are dropped

 private:
  QWidget* buildList();
  QWidget* buildEditor();
  void refreshList(const QString& select_name);
  void showItem(QListWidgetItem* item);
  void onCurrentItemChanged(QListWidgetItem* current, QListWidgetItem* previous);
  void removeSelected();
  void testConnection();
  void showReport(const ConnectionReport& report);
  void updateButtons();
  void setStatus(const QString& text, bool problem);
  bool hasUnsavedEdits() const;
  bool mayDropEdits();  // true when there are none or the user lets them go

  TargetStore* store_;
  ConnectionTest* test_;
  QListWidget* list_;
  QPushButton* remove_;
  QStackedWidget* pages_;  // the local note, or the form
  TargetForm* form_;
  QPushButton* save_;
  QPushButton* revert_;
  QPushButton* test_button_;
  QLabel* status_;       // the outcome of Save
  QLabel* test_result_;  // the last connection report

  QString editing_;  // the saved name of the target in the form; empty for a draft
  bool draft_ = false;
  Target original_;          // what the form started from
  QString tested_;           // the name of the target the running test probes
  bool refreshing_ = false;  // refreshList() is filling the list: selection changes are its own
  bool saving_ = false;      // save() is changing the store
};

}  // namespace moe::ui
