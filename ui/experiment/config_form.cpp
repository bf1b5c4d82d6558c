#include "experiment/config_form.h"

#include <algorithm>

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QVBoxLayout>

#include "base/experiment/experiment_document.h"
#include "base/experiment/field_relevance.h"
#include "experiment/field_editor.h"

namespace moe::ui {
namespace {

const QColor kProblemColor(0xc6, 0x28, 0x28);
constexpr int kMinEditorWidth = 200;  // a spin box or combo box that reads comfortably

QLabel* problemLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette palette = label->palette();
  palette.setColor(QPalette::WindowText, kProblemColor);
  label->setPalette(palette);
  label->hide();
  return label;
}

// The section a pointer falls in: "/moe/foo" and "/moe" -> "moe"; "" -> "".
std::string sectionOf(const std::string& pointer) {
  if (pointer.size() < 2) return "";
  const size_t slash = pointer.find('/', 1);
  return slash == std::string::npos ? pointer.substr(1) : pointer.substr(1, slash - 1);
}

}  // namespace

ConfigForm::ConfigForm(ExperimentDocument* document, QWidget* parent)
    : QScrollArea(parent), document_(document) {
  setWidgetResizable(true);
  setFrameShape(QFrame::NoFrame);
  build();
  connect(document_, &ExperimentDocument::contentChanged, this, &ConfigForm::refresh);
  refresh();
}

void ConfigForm::build() {
  auto* content = new QWidget(this);
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->setSpacing(10);
  banner_ = problemLabel(content);
  layout->addWidget(banner_);
  groups_ = new QWidget(content);
  auto* columns = new QHBoxLayout(groups_);
  columns->setContentsMargins(0, 0, 0, 0);
  columns->setSpacing(12);
  for (QVBoxLayout*& column : columns_) {
    column = new QVBoxLayout;
    column->setSpacing(10);
    columns->addLayout(column, 1);
  }
  layout->addWidget(groups_);
  layout->addStretch(1);

  std::string subsection;
  for (const ConfigField& field : configFields()) {
    Section& s = section(field.section, groups_);
    auto* form = static_cast<QFormLayout*>(s.box->layout());
    if (field.subsection != subsection) {
      subsection = field.subsection;
      if (!subsection.empty()) {
        auto* heading = new QLabel(QString::fromStdString(sectionTitle(subsection)), s.box);
        QFont font = heading->font();
        font.setBold(true);
        heading->setFont(font);
        heading->setContentsMargins(0, 6, 0, 0);
        form->addRow(heading);
        ++s.rows;
      }
    }
    ++s.rows;
    auto* editor = new FieldEditor(field, s.box);
    editor->setObjectName(QString::fromStdString(field.pointer));
    editor->setMinimumWidth(kMinEditorWidth);
    form->addRow(editor->label(), editor);
    const std::string pointer = field.pointer;
    connect(editor, &FieldEditor::edited, this,
            [this, pointer](const nlohmann::json& value) { document_->setValue(pointer, value); });
    editors_.push_back(editor);
    by_pointer_[pointer] = editor;
  }
  alignRows();
  setWidget(content);
  layoutColumns(false);
  // Never narrower than one column: a horizontal scroll bar in a form is a nuisance.
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setMinimumWidth(content->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width());
}

ConfigForm::Section& ConfigForm::section(const std::string& key, QWidget* parent) {
  auto it = sections_.find(key);
  if (it != sections_.end()) return it->second;
  Section s;
  s.box = new QGroupBox(QString::fromStdString(sectionTitle(key)), parent);
  auto* form = new QFormLayout(s.box);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
  form->setRowWrapPolicy(QFormLayout::DontWrapRows);
  form->setHorizontalSpacing(10);
  form->setVerticalSpacing(2);
  s.problems = problemLabel(s.box);
  form->addRow(s.problems);
  section_order_.push_back(key);
  return sections_.emplace(key, s).first->second;
}

// Groups have separate form layouts; one label width for all keeps the editors aligned, and one
// row height keeps check box rows from looking squeezed between spin boxes.
void ConfigForm::alignRows() {
  int width = 0, height = 0;
  for (FieldEditor* e : editors_) {
    width = std::max(width, e->label()->sizeHint().width());
    height = std::max(height, e->editorRowHeight());
  }
  for (FieldEditor* e : editors_) {
    e->label()->setMinimumWidth(width);
    e->setEditorRowHeight(height);
  }
}

// Sections fill the first column until it holds about half of the rows, in key order, so the
// two columns read top to bottom, left then right.
void ConfigForm::layoutColumns(bool two) {
  if (two_columns_ == int(two)) return;
  two_columns_ = int(two);
  int total = 0;
  for (const auto& key : section_order_) total += sections_[key].rows;
  int first = 0;
  for (const auto& key : section_order_) {
    Section& s = sections_[key];
    columns_[0]->removeWidget(s.box);
    columns_[1]->removeWidget(s.box);
    // A section goes left while its middle row falls in the first half.
    const bool left = !two || 2 * first + s.rows <= total;
    (left ? columns_[0] : columns_[1])->addWidget(s.box);
    if (left) first += s.rows;
  }
  // One column: the empty second one must not take half the width.
  static_cast<QHBoxLayout*>(groups_->layout())->setStretch(1, two ? 1 : 0);
  for (QVBoxLayout* column : columns_) {
    // Keep one trailing stretch per column so groups stay at the top.
    for (int i = column->count() - 1; i >= 0; --i) {
      if (column->itemAt(i)->spacerItem()) delete column->takeAt(i);
    }
    column->addStretch(1);
  }
}

void ConfigForm::resizeEvent(QResizeEvent* event) {
  QScrollArea::resizeEvent(event);
  // Two columns once each can hold a label and a comfortably wide editor.
  const int label = editors_.empty() ? 0 : editors_.front()->label()->minimumWidth();
  const int column = label + kMinEditorWidth + 30;
  layoutColumns(viewport()->width() >= 2 * column + 12);
}

FieldEditor* ConfigForm::fieldEditor(const std::string& pointer) const {
  auto it = by_pointer_.find(pointer);
  return it == by_pointer_.end() ? nullptr : it->second;
}

QString ConfigForm::sectionProblem(const std::string& section) const {
  if (section.empty()) return banner_->isHidden() ? QString() : banner_->text();
  auto it = sections_.find(section);
  if (it == sections_.end() || it->second.problems->isHidden()) return {};
  return it->second.problems->text();
}

void ConfigForm::refresh() {
  // Values come from the parsed config, so every editor shows a well-typed value; a value the
  // config could not take (a string for an integer) keeps the default, with its problem below.
  // A choice key shows the name as written, also one that names no value (flagged below).
  const nlohmann::json values = protocol::to_json(document_->config());
  const nlohmann::json& written = document_->json();
  for (FieldEditor* editor : editors_) {
    const nlohmann::json::json_pointer pointer(editor->field().pointer);
    const bool written_choice = !editor->field().choices.empty() && written.contains(pointer) &&
                                written.at(pointer).is_string();
    if (written_choice) {
      editor->setValue(written.at(pointer));
    } else if (values.contains(pointer)) {
      editor->setValue(values.at(pointer));
    }
    editor->setUnusedReason(
        QString::fromStdString(unusedReason(editor->field().pointer, document_->config())));
    if (editor->field().takes_auto) {
      QStringList offered;
      for (const std::string& v : offeredValues(editor->field().pointer, document_->config()))
        offered << QString::fromStdString(v);
      editor->setChoices(offered);
    }
  }
  showProblems();
}

void ConfigForm::showProblems() {
  std::map<std::string, QStringList> field_messages, section_messages;
  for (const protocol::ConfigProblem& p : document_->problems()) {
    const QString message = QString::fromStdString(p.message);
    if (by_pointer_.count(p.pointer)) {
      field_messages[p.pointer] << message;
    } else {
      const std::string section = sectionOf(p.pointer);
      const QString where = QString::fromStdString(dottedKey(p.pointer));
      const QString text = where.isEmpty() ? message : where + ": " + message;
      section_messages[sections_.count(section) ? section : ""] << text;
    }
  }
  for (FieldEditor* editor : editors_) {
    auto it = field_messages.find(editor->field().pointer);
    editor->setProblem(it == field_messages.end() ? QString() : it->second.join('\n'));
  }
  for (auto& [key, s] : sections_) {
    if (key.empty()) continue;  // top-level keys' section problems go to the banner
    auto it = section_messages.find(key);
    s.problems->setText(it == section_messages.end() ? QString() : it->second.join('\n'));
    s.problems->setVisible(it != section_messages.end());
  }
  QStringList banner = section_messages[""];
  if (const auto& error = document_->syntaxError()) {
    banner.prepend(tr("The JSON has a syntax error at line %1, column %2; the form shows the last "
                      "JSON that parsed and is read-only until it is fixed.")
                       .arg(error->line)
                       .arg(error->column));
  }
  banner_->setText(banner.join('\n'));
  banner_->setVisible(!banner.isEmpty());
  groups_->setEnabled(!document_->hasSyntaxError());
}

void ConfigForm::focusPointer(const QString& pointer) {
  const std::string p = pointer.toStdString();
  if (FieldEditor* editor = fieldEditor(p)) {
    ensureWidgetVisible(editor, 20, 40);
    editor->editor()->setFocus(Qt::OtherFocusReason);
    return;
  }
  auto it = sections_.find(sectionOf(p));
  if (it != sections_.end() && !sectionOf(p).empty()) {
    ensureWidgetVisible(it->second.box, 20, 20);
  } else {
    ensureWidgetVisible(banner_, 20, 20);
  }
}

}  // namespace moe::ui
