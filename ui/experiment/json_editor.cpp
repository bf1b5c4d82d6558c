#include "experiment/json_editor.h"

#include <algorithm>

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

#include "base/experiment/experiment_document.h"

namespace moe::ui {
namespace {
const QColor kProblemColor(0xc6, 0x28, 0x28);
}  // namespace

JsonEditor::JsonEditor(ExperimentDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  edit_ = new QPlainTextEdit(this);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  edit_->setFont(mono);
  edit_->setLineWrapMode(QPlainTextEdit::NoWrap);
  edit_->setTabStopDistance(2 * QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')));
  edit_->setPlainText(document_->text());

  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(edit_, 1);
  layout->addWidget(status_);

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(kDebounceMs);
  connect(debounce_, &QTimer::timeout, this, &JsonEditor::flush);
  connect(edit_, &QPlainTextEdit::textChanged, this, &JsonEditor::onUserEdit);
  connect(document_, &ExperimentDocument::textChanged, this, &JsonEditor::showDocumentText);
  connect(document_, &ExperimentDocument::contentChanged, this, &JsonEditor::showStatus);
  showStatus();
}

void JsonEditor::onUserEdit() {
  if (!applying_) debounce_->start();
}

void JsonEditor::flush() {
  debounce_->stop();
  document_->setText(edit_->toPlainText());
}

void JsonEditor::showDocumentText() {
  const QString& text = document_->text();
  if (text == edit_->toPlainText()) return;
  // The document's text wins over typing not handed over yet: it is newer (a form edit, a file).
  debounce_->stop();
  const int position = edit_->textCursor().position();
  const int scroll = edit_->verticalScrollBar()->value();
  applying_ = true;
  // Replace through a cursor, not setPlainText, so the change can be undone in the view.
  QTextCursor cursor(edit_->document());
  cursor.select(QTextCursor::Document);
  cursor.insertText(text);
  applying_ = false;
  cursor.setPosition(std::min(position, int(text.size())));
  edit_->setTextCursor(cursor);
  edit_->verticalScrollBar()->setValue(scroll);
}

void JsonEditor::showStatus() {
  QList<QTextEdit::ExtraSelection> marks;
  QPalette palette = status_->palette();
  if (const auto& error = document_->syntaxError()) {
    status_->setText(tr("Syntax error at line %1, column %2: %3")
                         .arg(error->line)
                         .arg(error->column)
                         .arg(QString::fromStdString(error->message)));
    palette.setColor(QPalette::WindowText, kProblemColor);
    // Underline the character where parsing stopped (or the last one, at the end of the text).
    QTextEdit::ExtraSelection mark;
    mark.cursor = QTextCursor(edit_->document());
    const int end = edit_->document()->characterCount() - 1;
    const int at = std::min(error->position, end);
    mark.cursor.setPosition(std::max(0, at == end ? at - 1 : at));
    mark.cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
    mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    mark.format.setUnderlineColor(kProblemColor);
    mark.format.setBackground(QColor(0xff, 0xeb, 0xee));
    marks << mark;
  } else {
    status_->setText(tr("Valid JSON"));
    palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
  }
  status_->setPalette(palette);
  edit_->setExtraSelections(marks);
}

QString JsonEditor::statusText() const {
  return status_->text();
}

void JsonEditor::goToSyntaxError() {
  const auto& error = document_->syntaxError();
  if (!error) return;
  QTextCursor cursor(edit_->document());
  cursor.setPosition(std::min(error->position, edit_->document()->characterCount() - 1));
  edit_->setTextCursor(cursor);
  edit_->setFocus(Qt::OtherFocusReason);
}

}  // namespace moe::ui
