#include "generate/token_text_view.h"

#include <QAbstractTextDocumentLayout>
#include <QScrollBar>

#include "base/generate/generate_session.h"
#include "draw/palette.h"
#include "generate/token_style.h"

namespace moe::ui {

namespace {

// Where a generated token's prompt and index sit in its characters' format.
constexpr int kPromptProperty = QTextFormat::UserProperty + 1;
constexpr int kIndexProperty = QTextFormat::UserProperty + 2;

QTextCharFormat plainFormat() {
  return QTextCharFormat();
}

QTextCharFormat noteFormat(bool bold = false) {
  QTextCharFormat f;
  f.setForeground(QColor(110, 110, 110));
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

QString promptText(const PromptRecord& p) {
  if (!p.pieces.isEmpty()) return p.pieces.join(QString());
  QStringList ids;
  for (int64_t id : p.tokens) ids << QString::number(id);
  return QStringLiteral("[%1]").arg(ids.join(QLatin1Char(' ')));
}

QString finishText(const PromptEndEvent& end) {
  QString why = end.finish;
  if (end.finish == QLatin1String("stop_token")) why = QObject::tr("end-of-sequence token");
  if (end.finish == QLatin1String("length")) why = QObject::tr("token limit");
  if (end.finish == QLatin1String("stop_string")) why = QObject::tr("stop string");
  return QObject::tr("  — %1 tokens, %2 · first token %3 ms")
      .arg(end.tokens)
      .arg(why)
      .arg(end.ttft_ms, 0, 'f', 0);
}

}  // namespace

TokenTextView::TokenTextView(const GenerateSession* session, QWidget* parent)
    : QTextEdit(parent), session_(session) {
  setReadOnly(true);
  setUndoRedoEnabled(false);
  setMouseTracking(true);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::TypeWriter);
  document()->setDefaultFont(mono);
  setPlaceholderText(tr("Generated text appears here, each token on its top expert's colour."));
}

void TokenTextView::setColourLayer(int layer) {
  if (layer == colour_layer_) return;
  colour_layer_ = layer;
  rebuild();
}

void TokenTextView::insertToken(QTextCursor& cursor, int prompt, int index) {
  const GeneratedToken* token = session_->token(prompt, index);
  if (!token) return;
  // Without a tokenizer (a prompt with ids but no pieces) every token shows as its id.
  const bool ids = session_->prompts()[static_cast<size_t>(prompt)].pieces.isEmpty();
  const QString text = ids ? QString::number(token->id) : token->piece;
  if (text.isEmpty()) return;  // a character's first bytes: shown with its last
  if (ids) cursor.insertText(QStringLiteral(" "), plainFormat());
  QTextCharFormat f;
  const int expert = token->topExpert(colour_layer_);
  if (expert >= 0) {
    const QColor background = expertColor(expert);
    f.setBackground(background);
    f.setForeground(textColorOn(background));
  }
  f.setProperty(kPromptProperty, prompt);
  f.setProperty(kIndexProperty, index);
  cursor.insertText(text, f);
}

void TokenTextView::rebuild() {
  QScrollBar* bar = verticalScrollBar();
  const bool at_end = bar->value() >= bar->maximum();
  const int keep = bar->value();
  clear();
  ends_.clear();
  QTextCursor cursor(document());
  const auto& prompts = session_->prompts();
  for (size_t p = 0; p < prompts.size(); ++p) {
    const PromptRecord& record = prompts[p];
    if (p > 0) cursor.insertBlock();
    cursor.insertText(tr("Prompt %1").arg(p + 1), noteFormat(true));
    cursor.insertBlock();
    cursor.insertText(promptText(record), plainFormat());
    for (size_t i = 0; i < record.generated.size(); ++i) {
      insertToken(cursor, static_cast<int>(p), static_cast<int>(i));
    }
    ends_.push_back(cursor);
    if (record.end) cursor.insertText(finishText(*record.end), noteFormat());
    cursor.insertBlock();
  }
  for (QTextCursor& end : ends_) end.setKeepPositionOnInsert(false);
  bar->setValue(at_end ? bar->maximum() : keep);
}

void TokenTextView::appendTokens(const std::vector<std::pair<int, int>>& tokens) {
  QScrollBar* bar = verticalScrollBar();
  const bool at_end = bar->value() >= bar->maximum();
  for (const auto& [prompt, index] : tokens) {
    if (prompt >= static_cast<int>(ends_.size())) return rebuild();
    insertToken(ends_[static_cast<size_t>(prompt)], prompt, index);
  }
  if (at_end) bar->setValue(bar->maximum());
}

std::pair<int, int> TokenTextView::tokenAt(const QPoint& viewport_pos) const {
  const QPointF at =
      viewport_pos + QPointF(horizontalScrollBar()->value(), verticalScrollBar()->value());
  return tokenAtPosition(document()->documentLayout()->hitTest(at, Qt::ExactHit));
}

std::pair<int, int> TokenTextView::tokenAtPosition(int position) const {
  if (position < 0) return {-1, -1};
  QTextCursor cursor(document());
  cursor.setPosition(position);
  cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
  const QTextCharFormat f = cursor.charFormat();
  if (!f.hasProperty(kPromptProperty)) return {-1, -1};
  return {f.intProperty(kPromptProperty), f.intProperty(kIndexProperty)};
}

bool TokenTextView::viewportEvent(QEvent* event) {
  const auto token_at = [this](const QPoint& pos) { return tokenAt(pos); };
  if (showTokenTooltip(event, viewport(), *session_, colour_layer_, token_at)) return true;
  return QTextEdit::viewportEvent(event);
}

}  // namespace moe::ui
