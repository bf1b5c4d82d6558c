#include "experiment/field_editor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace moe::ui {
namespace {

const QColor kProblemColor(0xc6, 0x28, 0x28);

// A frame that draws a red border around its child when the field has a problem. Painting it
// ourselves (rather than a style sheet) keeps the native look of the spin boxes and combo boxes.
class ProblemFrame : public QWidget {
 public:
  explicit ProblemFrame(QWidget* parent) : QWidget(parent) {}
  void setInvalid(bool invalid) {
    if (invalid_ == invalid) return;
    invalid_ = invalid;
    update();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    if (!invalid_) return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(kProblemColor, 1.5));
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.75, 0.75, -0.75, -0.75), 4, 4);
  }

 private:
  bool invalid_ = false;
};

// Shortest text that reads back as the same double ("0.001", "3e-04" -> "0.0003").
QString shortest(double v) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return QString::fromLatin1(buffer, int(result.ptr - buffer));
}

std::optional<double> parseNumber(const QString& text) {
  bool ok = false;
  const double v = text.trimmed().toDouble(&ok);  // C locale: '.' decimals, as in JSON
  if (!ok || !std::isfinite(v)) return std::nullopt;
  return v;
}

// An int_or_auto key's text: "auto", an integer (negative ones too: validation says why), or null.
nlohmann::json autoValue(const QString& text) {
  const QString t = text.trimmed();
  if (t == QStringLiteral("auto")) return "auto";
  bool ok = false;
  const qlonglong v = t.toLongLong(&ok);
  return ok ? nlohmann::json(int64_t(v)) : nlohmann::json(nullptr);
}

int clampToInt(int64_t v) {
  return int(
      std::clamp<int64_t>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

}  // namespace

FieldEditor::FieldEditor(const ConfigField& field, QWidget* parent)
    : QWidget(parent), field_(field) {
  label_ = new QLabel(QString::fromStdString(field_.label), this);
  label_->setToolTip(QString::fromStdString(field_.help));

  auto* frame = new ProblemFrame(this);
  frame_ = frame;
  auto* frame_layout = new QHBoxLayout(frame);
  frame_layout->setContentsMargins(2, 2, 2, 2);  // room for the border, reserved always
  frame_layout->setSpacing(4);
  frame_layout->addWidget(field_.is_path ? createPathEditor() : createEditor(), 1);
  editor_->setToolTip(QString::fromStdString(field_.help));
  label_->setBuddy(editor_);
  // The label lines up with the editor, not with the editor plus its problem message.
  label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  setEditorRowHeight(editorRowHeight());

  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette palette = message_->palette();
  palette.setColor(QPalette::WindowText, kProblemColor);
  message_->setPalette(palette);
  message_->setContentsMargins(3, 0, 3, 0);
  message_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(frame);
  layout->addWidget(message_);
}

QWidget* FieldEditor::createEditor() {
  if (field_.takes_auto) {
    // An editable list: the values the config admits now (setChoices), or any integer typed.
    combo_ = new QComboBox(this);
    combo_->setEditable(true);
    combo_->setInsertPolicy(QComboBox::NoInsert);
    combo_->addItems({QStringLiteral("auto"), QStringLiteral("0"), QStringLiteral("1")});
    connect(combo_, &QComboBox::activated, this, [this] { emitEdited(); });
    connect(combo_->lineEdit(), &QLineEdit::textEdited, this, [this] { emitEdited(); });
    editor_ = combo_;
  } else if (!field_.choices.empty()) {
    combo_ = new QComboBox(this);
    for (const std::string& choice : field_.choices)
      combo_->addItem(QString::fromStdString(choice));
    connect(combo_, &QComboBox::activated, this, [this] { emitEdited(); });
    editor_ = combo_;
  } else if (field_.type == FieldType::kBoolean) {
    check_ = new QCheckBox(this);
    connect(check_, &QCheckBox::toggled, this, [this] { emitEdited(); });
    editor_ = check_;
  } else if (field_.type == FieldType::kInteger) {
    spin_ = new QSpinBox(this);
    spin_->setRange(clampToInt(field_.min), clampToInt(field_.max));
    spin_->setAccelerated(true);
    // Read-only keys (schema) are shown greyed: they describe the file, the user does not tune
    // them.
    spin_->setEnabled(!field_.read_only);
    if (field_.read_only) spin_->setButtonSymbols(QAbstractSpinBox::NoButtons);
    connect(spin_, &QSpinBox::valueChanged, this, [this] { emitEdited(); });
    editor_ = spin_;
  } else {
    line_ = new QLineEdit(this);
    connect(line_, &QLineEdit::textEdited, this, [this] { emitEdited(); });
    editor_ = line_;
  }
  return editor_;
}

QWidget* FieldEditor::createPathEditor() {
  auto* row = new QWidget(this);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  line_ = new QLineEdit(row);
  line_->setPlaceholderText(tr("file or folder"));
  connect(line_, &QLineEdit::textEdited, this, [this] { emitEdited(); });
  editor_ = line_;
  // Data sets are folders (idx, cifar10) or a file or folder (text): the button picks a folder,
  // its menu offers a file.
  auto* browse = new QToolButton(row);
  browse->setText(tr("Browse…"));
  browse->setToolTip(tr("Choose the data folder (the arrow offers a single file)"));
  browse->setPopupMode(QToolButton::MenuButtonPopup);
  auto* menu = new QMenu(browse);
  menu->addAction(tr("Choose Folder…"), this, &FieldEditor::chooseFolder);
  menu->addAction(tr("Choose File…"), this, &FieldEditor::chooseFile);
  browse->setMenu(menu);
  connect(browse, &QToolButton::clicked, this, &FieldEditor::chooseFolder);
  layout->addWidget(line_, 1);
  layout->addWidget(browse);
  return row;
}

void FieldEditor::chooseFolder() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Data Folder"), line_->text());
  if (dir.isEmpty()) return;
  line_->setText(dir);
  emitEdited();
}

void FieldEditor::chooseFile() {
  const QString start = QFileInfo(line_->text()).absolutePath();
  const QString file = QFileDialog::getOpenFileName(this, tr("Data File"), start);
  if (file.isEmpty()) return;
  line_->setText(file);
  emitEdited();
}

void FieldEditor::emitEdited() {
  if (updating_) return;
  nlohmann::json v = value();
  if (v.is_null() && field_.takes_auto) {
    setLocalProblem(
        tr("expected an integer >= 0 or \"auto\", got \"%1\"").arg(combo_->currentText()));
    return;
  }
  if (v.is_null()) {
    setLocalProblem(tr("expected a number, got \"%1\"").arg(line_->text()));
    return;
  }
  setLocalProblem({});
  emit edited(v);
}

nlohmann::json FieldEditor::value() const {
  if (field_.takes_auto) return autoValue(combo_->currentText());
  if (combo_) return combo_->currentText().toStdString();
  if (check_) return check_->isChecked();
  if (spin_) return int64_t(spin_->value());
  if (field_.type == FieldType::kNumber) {
    if (auto v = parseNumber(line_->text())) return *v;
    return nullptr;
  }
  return line_->text().toStdString();
}

void FieldEditor::setValue(const nlohmann::json& value) {
  if (value == this->value()) return;
  updating_ = true;
  if (field_.takes_auto) {
    combo_->setCurrentText(
        QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump()));
    setLocalProblem({});
  } else if (combo_) {
    setComboValue(QString::fromStdString(value.is_string() ? value.get<std::string>() : ""));
  } else if (check_) {
    check_->setChecked(value.is_boolean() && value.get<bool>());
  } else if (spin_) {
    const int v = value.is_number() ? clampToInt(value.get<int64_t>()) : 0;
    // Show out-of-range values as they are (validation explains them) instead of clamping.
    spin_->setRange(std::min(clampToInt(field_.min), v), std::max(clampToInt(field_.max), v));
    spin_->setValue(v);
  } else if (field_.type == FieldType::kNumber) {
    line_->setText(value.is_number() ? shortest(value.get<double>()) : QString());
    setLocalProblem({});
  } else {
    line_->setText(QString::fromStdString(value.is_string() ? value.get<std::string>() : ""));
    line_->setCursorPosition(0);  // a long path reads from its start
  }
  updating_ = false;
}

void FieldEditor::setChoices(const QStringList& choices) {
  if (!field_.takes_auto) return;
  QStringList shown;
  for (int i = 0; i < combo_->count(); ++i) shown << combo_->itemText(i);
  if (shown == choices) return;
  updating_ = true;
  const QString text = combo_->currentText();  // what the user typed stays
  combo_->clear();
  combo_->addItems(choices);
  combo_->setCurrentText(text);
  updating_ = false;
}

void FieldEditor::setComboValue(const QString& value) {
  // A value outside the allowed ones (from the JSON view or a file) is shown as an extra item,
  // flagged by validation, until it is replaced.
  const int known = int(field_.choices.size());
  if (combo_->count() > known) combo_->removeItem(known);
  int index = combo_->findText(value);
  if (index < 0) {
    combo_->addItem(value);
    index = known;
  }
  combo_->setCurrentIndex(index);
}

void FieldEditor::setProblem(const QString& message) {
  if (problem_ == message) return;
  problem_ = message;
  updateProblemView();
}

QString FieldEditor::problem() const {
  return local_problem_.isEmpty() ? problem_ : local_problem_;
}

void FieldEditor::setLocalProblem(const QString& message) {
  if (local_problem_ == message) return;
  local_problem_ = message;
  updateProblemView();
}

int FieldEditor::editorRowHeight() const {
  return frame_->sizeHint().height();
}

void FieldEditor::setEditorRowHeight(int height) {
  frame_->setMinimumHeight(height);
  // Fixed, so the form keeps the label beside the editor when a problem message grows the row.
  label_->setFixedHeight(height);
}

void FieldEditor::setUnusedReason(const QString& reason) {
  if (unused_reason_ == reason) return;
  unused_reason_ = reason;
  QString tip = QString::fromStdString(field_.help);
  if (!reason.isEmpty()) tip += "\n" + tr("Not used now: %1.").arg(reason);
  label_->setToolTip(tip);
  editor_->setToolTip(tip);
  updateProblemView();
}

void FieldEditor::updateProblemView() {
  const QString text = problem();
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
  static_cast<ProblemFrame*>(frame_)->setInvalid(!text.isEmpty());
  // Red for a problem beats grey for an unused key.
  QPalette palette = label_->palette();
  const QPalette& own = QWidget::palette();
  palette.setColor(QPalette::WindowText, !text.isEmpty() ? kProblemColor
                                         : !unused_reason_.isEmpty()
                                             ? own.color(QPalette::PlaceholderText)
                                             : own.color(QPalette::WindowText));
  label_->setPalette(palette);
}

}  // namespace moe::ui
