// How the Generate tab shows one generated token, the same in the text and in the strip: its
// expert's colour with readable text on it, its piece made visible, and the tooltip with its
// experts and weights in every MoE layer.
#pragma once

#include <QColor>
#include <QString>

#include <functional>
#include <utility>

class QEvent;
class QPoint;
class QWidget;

namespace moe::ui {

class GenerateSession;

// Black or white, whichever reads better on `background`.
QColor textColorOn(const QColor& background);

// A piece as a label: spaces, tabs and newlines shown as ␣ → ⏎, "" as "(part of a character)".
QString visiblePiece(const QString& piece);

// Rich text: "prompt 1 · token 5 · id 123 "piece"", then per MoE layer its experts (a colour
// swatch each) with their weights, the layer the text is coloured by in bold. Empty when the
// token is not known.
QString tokenTooltip(const GenerateSession& session, int prompt, int index, int colour_layer);

// For a view's viewportEvent(): on a QEvent::ToolTip, shows the tooltip of the token `token_at`
// finds under the mouse ((prompt, index), or (-1, -1)), or hides it; true when the event was one.
bool showTokenTooltip(QEvent* event, QWidget* viewport, const GenerateSession& session,
                      int colour_layer,
                      const std::function<std::pair<int, int>(const QPoint&)>& token_at);

}  // namespace moe::ui
