#include "generate/token_style.h"

#include <QHelpEvent>
#include <QObject>
#include <QToolTip>
#include <QWidget>

#include "base/generate/generate_session.h"
#include "draw/palette.h"

namespace moe::ui {

QColor textColorOn(const QColor& background) {
  // Relative luminance as sRGB weighs it, without the gamma curve: enough to pick black or white.
  const double luma =
      0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
  return luma > 0.55 ? QColor(20, 20, 20) : QColor(Qt::white);
}

QString visiblePiece(const QString& piece) {
  if (piece.isEmpty()) return QObject::tr("(part of a character)");
  QString out = piece;
  out.replace(QLatin1Char(' '), QChar(0x2423));   // ␣
  out.replace(QLatin1Char('\t'), QChar(0x2192));  // →
  out.replace(QLatin1Char('\n'), QChar(0x23CE));  // ⏎
  return out;
}

QString tokenTooltip(const GenerateSession& session, int prompt, int index, int colour_layer) {
  const GeneratedToken* token = session.token(prompt, index);
  if (!token) return {};
  QString html = QStringLiteral("<b>%1</b> &nbsp;<span style='color:#666'>%2</span>")
                     .arg(visiblePiece(token->piece).toHtmlEscaped(),
                          QObject::tr("prompt %1 · token %2 · id %3")
                              .arg(prompt + 1)
                              .arg(index + 1)
                              .arg(token->id));
  html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
  for (const TokenRouting& r : token->routing) {
    const bool chosen = r.layer == colour_layer;
    QString cells;
    for (size_t i = 0; i < r.experts.size(); ++i) {
      cells += QStringLiteral(
                   "<td><span style='color:%1'>&#9632;</span> %2 <span "
                   "style='color:#666'>%3</span>&nbsp;&nbsp;</td>")
                   .arg(expertColor(r.experts[i]).name())
                   .arg(r.experts[i])
                   .arg(QString::number(r.weights[i], 'f', 3));
    }
    html +=
        QStringLiteral("<tr><td>%1%2%3&nbsp;&nbsp;</td>%4</tr>")
            .arg(chosen ? QStringLiteral("<b>") : QString(), QObject::tr("layer %1").arg(r.layer),
                 chosen ? QStringLiteral("</b>") : QString(), cells);
  }
  return html + QStringLiteral("</table>");
}

bool showTokenTooltip(QEvent* event, QWidget* viewport, const GenerateSession& session,
                      int colour_layer,
                      const std::function<std::pair<int, int>(const QPoint&)>& token_at) {
  if (event->type() != QEvent::ToolTip) return false;
  auto* help = static_cast<QHelpEvent*>(event);
  const auto [prompt, index] = token_at(help->pos());
  const QString tip = prompt < 0 ? QString() : tokenTooltip(session, prompt, index, colour_layer);
  if (tip.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(help->globalPos(), tip, viewport);
  }
  return true;
}

}  // namespace moe::ui
