// RoutingStrip: the generated tokens' expert choices as a grid, MoE layers down and tokens across
// (each prompt's tokens in turn, a gap between prompts), each cell on that layer's top expert's
// colour. The layer labels stay at the left while the tokens scroll; the view follows the newest
// tokens unless scrolled back. Hovering a cell shows the token's experts and weights in every
// layer, as the text does.
#pragma once

#include <QAbstractScrollArea>

#include <utility>
#include <vector>

namespace moe::ui {

class GenerateSession;

class RoutingStrip : public QAbstractScrollArea {
  Q_OBJECT

 public:
  explicit RoutingStrip(const GenerateSession* session, QWidget* parent = nullptr);

  // The layer the text is coloured by, marked in the gutter.
  void setColourLayer(int layer);
  // The session grew (or was cleared): lays out again and repaints.
  void refresh();

  // The token under a point of the viewport, (prompt, index), and the MoE layer's position among
  // the session's layers; (-1, -1) and -1 off every cell.
  std::pair<int, int> tokenAt(const QPoint& viewport_pos, int* layer_position = nullptr) const;
  // Where a token's cell in the MoE layer at `layer_position` is drawn, in viewport coordinates.
  QRect cellRect(int prompt, int index, int layer_position) const;
  int contentWidth() const { return content_width_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool viewportEvent(QEvent* event) override;

 private:
  static constexpr int kCellWidth = 9;
  static constexpr int kGutter = 34;  // "L12" labels
  static constexpr int kHeader = 14;  // prompt labels above the cells
  static constexpr int kPromptGap = 8;
  static constexpr int kMaxGridHeight = 168;

  void layoutColumns();
  int layers() const;

  const GenerateSession* session_;
  int colour_layer_ = -1;
  int cell_height_ = 12;
  int hinted_height_ = 0;      // the height the layout last asked sizeHint() for
  std::vector<int> prompt_x_;  // each prompt's first column's x in content coordinates
  int content_width_ = 0;
};

}  // namespace moe::ui
