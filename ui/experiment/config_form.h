// ConfigForm: the form over every RunConfig key, one group per section (Experiment, Model, MoE,
// Parallelism, Training, Data, Telemetry), built from configFields() so new keys appear without
// changes here. It shows the document's values and problems and writes edits back to it. The
// groups flow into two columns when the form is wide enough, else one.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <QScrollArea>

class QGroupBox;
class QLabel;
class QVBoxLayout;

namespace moe::ui {

class ExperimentDocument;
class FieldEditor;

class ConfigForm : public QScrollArea {
  Q_OBJECT

 public:
  explicit ConfigForm(ExperimentDocument* document, QWidget* parent = nullptr);

  // The editor of a key ("/moe/top_k"), or null.
  FieldEditor* fieldEditor(const std::string& pointer) const;
  const std::vector<FieldEditor*>& fieldEditors() const { return editors_; }
  // Problems that belong to no field (unknown keys, a section that is not an object), shown at
  // the top of the section's group; "" is the document itself, shown above all groups.
  QString sectionProblem(const std::string& section) const;

 public slots:
  // Scrolls to the field (or the group, or the top) a problem's pointer names and focuses it.
  void focusPointer(const QString& pointer);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Section {
    QGroupBox* box = nullptr;
    QLabel* problems = nullptr;
    int rows = 0;
  };

  void build();
  Section& section(const std::string& key, QWidget* parent);
  void alignRows();
  void layoutColumns(bool two);
  void refresh();
  void showProblems();

  ExperimentDocument* document_;
  std::vector<FieldEditor*> editors_;
  std::map<std::string, FieldEditor*> by_pointer_;
  std::map<std::string, Section> sections_;
  std::vector<std::string> section_order_;
  QLabel* banner_ = nullptr;  // document-level problems and the syntax error notice
  QWidget* groups_ = nullptr;
  QVBoxLayout* columns_[2] = {nullptr, nullptr};
  int two_columns_ = -1;  // -1 until the first layout
};

}  // namespace moe::ui
