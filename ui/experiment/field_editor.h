// FieldEditor: one RunConfig key in the form: the editor that fits its type (combo box for allowed
// values, an editable one for integers that take "auto", spin box, check box, line edit, with a
// browse button for paths), its label, and the problem message shown under it with a red frame
// around the editor.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>
#include <QWidget>

#include <nlohmann/json.hpp>

#include "base/experiment/config_field_catalog.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace moe::ui {

class FieldEditor : public QWidget {
  Q_OBJECT

 public:
  FieldEditor(const ConfigField& field, QWidget* parent = nullptr);

  const ConfigField& field() const { return field_; }
  // The row label; the form puts it in its label column.
  QLabel* label() const { return label_; }
  // The editing widget (spin box, combo box, ...): for focus and for tests.
  QWidget* editor() const { return editor_; }

  // Shows `value` (a JSON value of the field's type) without emitting edited(). A value the
  // editor already shows is left alone, so typing "1e-3" is not rewritten to "0.001" mid-edit.
  void setValue(const nlohmann::json& value);
  // The value the editor shows, as JSON (null while a number field holds text that is not one).
  nlohmann::json value() const;

  // The values an int_or_auto key offers now ("auto", "0", "1", "2", ...); the text shown stays.
  // Other keys keep their catalog choices.
  void setChoices(const QStringList& choices);

  // "" clears. Several problems of the same key come joined by newlines.
  void setProblem(const QString& message);
  QString problem() const;

  // Why the key has no effect in the current config ("" when it has one): the label is dimmed and
  // the tooltip says why. The editor stays editable.
  void setUnusedReason(const QString& reason);
  bool isUnused() const { return !unused_reason_.isEmpty(); }

  // The height of the editor row (without the problem message); the form gives all rows the
  // height of the tallest so check boxes and spin boxes keep one rhythm.
  int editorRowHeight() const;
  void setEditorRowHeight(int height);

 signals:
  // The user changed the value (as they type, for line edits and spin boxes).
  void edited(const nlohmann::json& value);

 private:
  QWidget* createEditor();
  QWidget* createPathEditor();
  void emitEdited();
  void chooseFolder();
  void chooseFile();
  void setComboValue(const QString& value);
  void setLocalProblem(const QString& message);
  void updateProblemView();

  ConfigField field_;
  QLabel* label_ = nullptr;
  QWidget* frame_ = nullptr;  // draws the red border (a ProblemFrame)
  QWidget* editor_ = nullptr;
  QLabel* message_ = nullptr;
  QCheckBox* check_ = nullptr;
  QComboBox* combo_ = nullptr;
  QSpinBox* spin_ = nullptr;
  QLineEdit* line_ = nullptr;
  QString problem_;        // from validation
  QString local_problem_;  // text that is not a number yet, found before it reaches the document
  QString unused_reason_;
  bool updating_ = false;
};

}  // namespace moe::ui
