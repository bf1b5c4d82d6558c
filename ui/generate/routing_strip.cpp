#include "generate/routing_strip.h"

#include <QPainter>
#include <QScrollBar>

#include <algorithm>

#include "base/generate/generate_session.h"
#include "draw/palette.h"
#include "generate/token_style.h"

namespace moe::ui {

RoutingStrip::RoutingStrip(const GenerateSession* session, QWidget* parent)
    : QAbstractScrollArea(parent), session_(session) {
  setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  viewport()->setMouseTracking(true);
  refresh();
}

int RoutingStrip::layers() const {
  return static_cast<int>(session_->moeLayers().size());
}

void RoutingStrip::setColourLayer(int layer) {
  colour_layer_ = layer;
  viewport()->update();
}

void RoutingStrip::layoutColumns() {
  // Few layers get tall cells; many share the strip's height, at least 3 px a layer.
  cell_height_ = layers() > 0 ? std::clamp(kMaxGridHeight / layers(), 3, 14) : 14;
  prompt_x_.clear();
  int x = 0;
  for (const PromptRecord& p : session_->prompts()) {
    prompt_x_.push_back(x);
    x += static_cast<int>(p.generated.size()) * kCellWidth + kPromptGap;
  }
  content_width_ = std::max(0, x - kPromptGap);
}

void RoutingStrip::refresh() {
  QScrollBar* bar = horizontalScrollBar();
  const bool following = bar->value() >= bar->maximum();
  layoutColumns();
  const int visible = std::max(0, viewport()->width() - kGutter);
  bar->setRange(0, std::max(0, content_width_ - visible));
  bar->setPageStep(visible);
  bar->setSingleStep(kCellWidth * 4);
  if (following) bar->setValue(bar->maximum());
  if (sizeHint().height() != hinted_height_) {  // the layers changed
    hinted_height_ = sizeHint().height();
    updateGeometry();
  }
  viewport()->update();
}

QSize RoutingStrip::sizeHint() const {
  const int grid = std::max(1, layers()) * cell_height_;
  return {400, kHeader + grid + horizontalScrollBar()->sizeHint().height() + 2 * frameWidth() + 2};
}

QSize RoutingStrip::minimumSizeHint() const {
  return {kGutter + 10 * kCellWidth, sizeHint().height()};
}

void RoutingStrip::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  refresh();
}

std::pair<int, int> RoutingStrip::tokenAt(const QPoint& pos, int* layer_position) const {
  if (layer_position) *layer_position = -1;
  if (pos.x() < kGutter || pos.y() < kHeader) return {-1, -1};
  const int row = (pos.y() - kHeader) / cell_height_;
  if (row >= layers()) return {-1, -1};
  const int x = pos.x() - kGutter + horizontalScrollBar()->value();
  const auto& prompts = session_->prompts();
  for (size_t p = 0; p < prompt_x_.size(); ++p) {
    const int column = (x - prompt_x_[p]) / kCellWidth;
    if (x >= prompt_x_[p] && column < static_cast<int>(prompts[p].generated.size())) {
      if (layer_position) *layer_position = row;
      return {static_cast<int>(p), column};
    }
  }
  return {-1, -1};
}

QRect RoutingStrip::cellRect(int prompt, int index, int layer_position) const {
  if (prompt < 0 || prompt >= static_cast<int>(prompt_x_.size())) return {};
  const int x = kGutter + prompt_x_[static_cast<size_t>(prompt)] - horizontalScrollBar()->value() +
                index * kCellWidth;
  return {x, kHeader + layer_position * cell_height_, kCellWidth - 1,
          cell_height_ - (cell_height_ > 4 ? 1 : 0)};
}

void RoutingStrip::paintEvent(QPaintEvent*) {
  QPainter painter(viewport());
  painter.fillRect(viewport()->rect(), palette().base());
  const auto& moe_layers = session_->moeLayers();
  const auto& prompts = session_->prompts();
  const int scroll = horizontalScrollBar()->value();
  const int right = viewport()->width();
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.8);
  painter.setFont(small);

  painter.save();
  painter.setClipRect(kGutter, 0, right - kGutter, viewport()->height());
  for (size_t p = 0; p < prompts.size() && p < prompt_x_.size(); ++p) {
    const int x0 = kGutter + prompt_x_[p] - scroll;
    const auto& tokens = prompts[p].generated;
    const int width = static_cast<int>(tokens.size()) * kCellWidth;
    if (x0 > right || x0 + width < kGutter) continue;
    painter.setPen(palette().color(QPalette::PlaceholderText));
    if (prompts.size() > 1) {
      painter.drawText(QRect(x0, 0, std::max(width, 60), kHeader), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("prompt %1").arg(p + 1));
    }
    // Only the columns in view are painted: a long generation stays cheap to scroll.
    const int first = std::max(0, (kGutter - x0) / kCellWidth);
    const int last = std::min(static_cast<int>(tokens.size()), (right - x0) / kCellWidth + 1);
    for (int i = first; i < last; ++i) {
      for (size_t l = 0; l < moe_layers.size(); ++l) {
        const int expert = tokens[static_cast<size_t>(i)].topExpert(moe_layers[l].layer);
        painter.fillRect(cellRect(static_cast<int>(p), i, static_cast<int>(l)),
                         expert < 0 ? QColor(230, 230, 230) : expertColor(expert));
      }
    }
  }
  painter.restore();

  // The gutter: one label per layer, as many as fit.
  painter.setPen(palette().color(QPalette::Text));
  const int label_every =
      std::max(1, (painter.fontMetrics().height() + cell_height_ - 1) / cell_height_);
  for (size_t l = 0; l < moe_layers.size(); ++l) {
    const bool chosen = moe_layers[l].layer == colour_layer_;
    if (!chosen && l % static_cast<size_t>(label_every) != 0) continue;
    QFont f = small;
    f.setBold(chosen);
    painter.setFont(f);
    const QRect row(0, kHeader + static_cast<int>(l) * cell_height_ - 4, kGutter - 4,
                    cell_height_ + 8);
    painter.drawText(
        row, Qt::AlignRight | Qt::AlignVCenter,
        (chosen ? QStringLiteral("▸L%1") : QStringLiteral("L%1")).arg(moe_layers[l].layer));
  }
  if (moe_layers.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(viewport()->rect().adjusted(kGutter, 0, 0, 0),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Each generated token's top expert in every MoE layer appears here."));
  }
}

bool RoutingStrip::viewportEvent(QEvent* event) {
  const auto token_at = [this](const QPoint& pos) { return tokenAt(pos); };
  if (showTokenTooltip(event, viewport(), *session_, colour_layer_, token_at)) return true;
  return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace moe::ui
