// TokenTextView: the Generate tab's text. Per prompt a heading, the prompt as plain text, then its
// generated tokens as they stream in, each on its top expert's colour in the chosen MoE layer,
// and how it ended. Tokens are appended where their prompt's text ends (prompts decoded together
// grow side by side); hovering a generated token shows its experts and weights in every layer.
#pragma once

#include <QTextCursor>
#include <QTextEdit>

#include <utility>
#include <vector>

namespace moe::ui {

class GenerateSession;

class TokenTextView : public QTextEdit {
  Q_OBJECT

 public:
  explicit TokenTextView(const GenerateSession* session, QWidget* parent = nullptr);

  // The decoder layer whose top expert colours the tokens; redraws them all.
  void setColourLayer(int layer);
  int colourLayer() const { return colour_layer_; }

  // Draws everything from the session again (a new run, a prompt line, a prompt's end).
  void rebuild();
  // Appends new tokens, (prompt, index) each, in order; rebuilds when a prompt is not drawn yet.
  void appendTokens(const std::vector<std::pair<int, int>>& tokens);

  // The generated token under a point of the viewport, (prompt, index); (-1, -1) off every token.
  std::pair<int, int> tokenAt(const QPoint& viewport_pos) const;
  // The generated token whose character is at a document position; (-1, -1) for none.
  std::pair<int, int> tokenAtPosition(int position) const;

 protected:
  bool viewportEvent(QEvent* event) override;

 private:
  void insertToken(QTextCursor& cursor, int prompt, int index);

  const GenerateSession* session_;
  int colour_layer_ = -1;
  std::vector<QTextCursor> ends_;  // where each prompt's generated text ends
};

}  // namespace moe::ui
