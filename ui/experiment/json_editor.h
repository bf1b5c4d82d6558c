// JsonEditor: the experiment as JSON text, in sync with the document both ways. Typing updates the
// document after a short pause (so a half-typed key is not re-parsed per keystroke); a syntax
// error is underlined and reported with line and column, and the text stays as typed. Changes
// from elsewhere (the form, a file) replace the text, keeping the cursor and scroll position.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTimer;

namespace moe::ui {

class ExperimentDocument;

class JsonEditor : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kDebounceMs = 300;

  explicit JsonEditor(ExperimentDocument* document, QWidget* parent = nullptr);

  QPlainTextEdit* textEdit() const { return edit_; }
  // The line under the text: "Valid JSON", or the syntax error with its line and column.
  QString statusText() const;

 public slots:
  // Hands pending typing to the document now instead of after the pause.
  void flush();
  // Moves the cursor to the syntax error, if any.
  void goToSyntaxError();

 private:
  void onUserEdit();
  void showDocumentText();
  void showStatus();

  ExperimentDocument* document_;
  QPlainTextEdit* edit_;
  QLabel* status_;
  QTimer* debounce_;
  bool applying_ = false;  // the text is being replaced from the document, not typed
};

}  // namespace moe::ui
