// Report charts on a QPainter (chart_painter.h).
#include "draw/chart_painter.h"

#include <QImage>
#include <QObject>
#include <QPaintEngine>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <variant>

#include "base/plot_data/phase_bins.h"
#include "draw/chart_frame.h"
#include "draw/palette.h"

namespace moe::ui {

namespace {

constexpr size_t kPhaseBins = 80;  // each phase is a bar per bin: the biggest chart in SVG
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Range {
  double lower = kInf, upper = -kInf;
  void add(double v) {
    if (!std::isfinite(v)) return;
    lower = std::min(lower, v);
    upper = std::max(upper, v);
  }
  bool empty() const { return lower > upper; }
};

// The report's padding: 6 % of the range on each side (none below a zero floor); a flat series
// sits in the middle of a range widened by a tenth of its value or 1.
FrameAxis padded(QString label, Range r, bool from_zero) {
  if (r.empty()) r = {0, 1};
  FrameAxis axis;
  axis.label = std::move(label);
  if (r.upper == r.lower) {  // a flat series: in the middle, whatever the floor
    const double pad = std::max(1.0, std::fabs(r.upper) * 0.1);
    axis.lower = r.lower - pad;
    axis.upper = r.upper + pad;
    return axis;
  }
  if (from_zero && r.lower > 0) r.lower = 0;
  const double pad = (r.upper - r.lower) * 0.06;
  axis.lower = r.lower - (from_zero && r.lower == 0 ? 0 : pad);
  axis.upper = r.upper + pad;
  return axis;
}

// One polyline per run of finite points, at most four points (first, last, lowest, highest)
// per pixel column: a long run draws the same line with a few thousand points.
QPainterPath curvePath(const ChartFrame& f, const std::vector<double>& xs,
                       const std::vector<double>& ys, bool right) {
  QPainterPath path;
  bool open = false;
  long column = std::numeric_limits<long>::min();
  QPointF first, last, low, high;
  auto flush = [&] {
    if (column == std::numeric_limits<long>::min()) return;
    QPointF pts[4] = {first, low, high, last};
    if (low.x() > high.x()) std::swap(pts[1], pts[2]);
    for (const QPointF& p : pts) {
      if (!open) {
        path.moveTo(p);
        open = true;
      } else {
        path.lineTo(p);
      }
    }
    column = std::numeric_limits<long>::min();
  };
  const size_t n = std::min(xs.size(), ys.size());
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(xs[i]) || !std::isfinite(ys[i])) {  // a gap
      flush();
      open = false;
      continue;
    }
    const QPointF p(f.mapX(xs[i]), f.mapY(ys[i], right));
    const long c = std::lround(std::floor(p.x()));
    if (c != column) {
      flush();
      column = c;
      first = last = low = high = p;
      continue;
    }
    last = p;
    if (p.y() > low.y()) low = p;  // screen y grows down: "low" is the lowest value
    if (p.y() < high.y()) high = p;
  }
  flush();
  return path;
}

void paintCurves(QPainter& p, const CurveChart& c, QSizeF size) {
  Range x, y, y2;
  bool any_right = false;
  int named = 0;
  std::vector<LegendEntry> legend;
  for (const ChartSeries& s : c.series) {
    const size_t n = std::min(s.x.size(), s.y.size());
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x.add(s.x[i]);
      (s.right ? y2 : y).add(s.y[i]);
    }
    any_right = any_right || s.right;
    if (!s.name.isEmpty()) ++named;
  }
  const auto colour = [](const ChartSeries& s) {
    return s.light ? seriesColor(s.colour).lighter(165) : seriesColor(s.colour);
  };
  if (named > 1) {
    for (const ChartSeries& s : c.series) {
      if (s.name.isEmpty()) continue;
      legend.push_back({s.name, colour(s),
                        s.style == ChartSeries::Style::kDashedMarkers
                            ? LegendEntry::Swatch::kDashedMarker
                            : LegendEntry::Swatch::kLine,
                        s.width});
    }
  }
  FrameAxis x_axis = padded(c.x_label, x, false);
  if (x.empty())
    x_axis.lower = 0, x_axis.upper = 1;
  else
    x_axis.lower = x.lower, x_axis.upper = x.upper > x.lower ? x.upper : x.lower + 1;
  const FrameAxis y_axis = padded(c.y_label, y, c.from_zero);
  const FrameAxis y2_axis = padded(c.y2_label, y2, c.from_zero);
  ChartFrame f(p, size, x_axis, y_axis, any_right ? &y2_axis : nullptr, std::move(legend));
  f.drawBackground();
  p.save();
  p.setClipRect(f.plotRect());
  p.setRenderHint(QPainter::Antialiasing, true);
  for (const ChartSeries& s : c.series) {
    const QColor col = colour(s);
    if (s.style == ChartSeries::Style::kDashedMarkers) {
      p.setPen(QPen(col, 1.2, Qt::DashLine));
      p.drawPath(curvePath(f, s.x, s.y, s.right));
      p.setPen(QPen(col, 1.2));
      p.setBrush(Qt::white);
      const size_t n = std::min(s.x.size(), s.y.size());
      for (size_t i = 0; i < n; ++i) {
        if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]))
          p.drawEllipse(QPointF(f.mapX(s.x[i]), f.mapY(s.y[i], s.right)), 3, 3);
      }
      p.setBrush(Qt::NoBrush);
    } else {
      p.setPen(QPen(col, s.width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
      p.drawPath(curvePath(f, s.x, s.y, s.right));
    }
  }
  p.restore();
  f.drawAxes();
}

// The colour scale right of the plot (room kept by kScaleRoom): a viridis bar from 0 at the bottom
// to `top`, its ticks and its title.
constexpr double kScaleBar = 12;
constexpr double kScaleRoom = 10 + kScaleBar + 60;
const QColor kDeadColour(160, 160, 160);     // an expert no token chose
const QColor kMissingColour(236, 236, 236);  // a cell with no value (NaN)
const QColor kOverloadedColour(213, 94, 0);  // Okabe–Ito vermillion

// `cells` (one pixel per cell) over the whole of the axes' ranges, scaled without smoothing. A
// PDF gets one rectangle per cell instead: Qt writes images into a PDF JPEG-compressed, whose
// chroma subsampling blends a few-pixel image's neighbouring cells into wrong colours.
void drawCells(QPainter& p, const ChartFrame& f, const FrameAxis& x, const FrameAxis& y,
               const QImage& cells) {
  const QRectF area(QPointF(f.mapX(x.lower), f.mapY(y.upper)),
                    QPointF(f.mapX(x.upper), f.mapY(y.lower)));
  p.save();
  if (p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Pdf) {
    p.setRenderHint(QPainter::Antialiasing, false);
    const double w = area.width() / cells.width(), h = area.height() / cells.height();
    for (int row = 0; row < cells.height(); ++row) {
      for (int col = 0; col < cells.width(); ++col) {
        // A hair wider than the cell, so that no seam of the background shows between cells.
        p.fillRect(QRectF(area.left() + col * w, area.top() + row * h, w + 0.3, h + 0.3),
                   cells.pixelColor(col, row));
      }
    }
  } else {
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(area, cells);
  }
  p.restore();
}

void drawColourScale(QPainter& p, ChartFrame& f, double top, const QString& label) {
  const QRectF plot = f.plotRect();
  const double bar_x = plot.right() + 10;
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  QLinearGradient gradient(QPointF(0, plot.bottom()), QPointF(0, plot.top()));
  for (int i = 0; i < kViridisStops; ++i)
    gradient.setColorAt(static_cast<double>(i) / (kViridisStops - 1), viridisStop(i));
  p.fillRect(QRectF(bar_x, plot.top(), kScaleBar, plot.height()), gradient);
  p.restore();
  f.drawSideAxis(bar_x + kScaleBar, 0, top, label);
}

void paintHeatmap(QPainter& p, const LoadMatrix& m, QSizeF size) {
  const QString scale_label = QObject::tr("tokens");
  FrameAxis x{QObject::tr("step"), 0, 1, false};
  FrameAxis y{QObject::tr("expert"), -0.5, std::max<double>(0.5, m.experts - 0.5), true};
  if (m.bins > 0) x.lower = m.first_step.front() - 0.5, x.upper = m.last_step.back() + 0.5;
  ChartFrame f(p, size, x, y, nullptr, {}, kScaleRoom);
  f.drawBackground();
  const double top = std::max(m.max_value, 1.0);
  // The cells as an image of one pixel per cell, scaled without smoothing: an SVG holds it as
  // one embedded PNG, not thousands of rectangles.
  if (m.bins > 0 && m.experts > 0) {
    QImage cells(static_cast<int>(m.bins), static_cast<int>(m.experts), QImage::Format_ARGB32);
    for (size_t b = 0; b < m.bins; ++b) {
      for (size_t e = 0; e < m.experts; ++e) {
        // Row 0 of the image is the top: the highest expert.
        cells.setPixelColor(static_cast<int>(b), static_cast<int>(m.experts - 1 - e),
                            viridisColor(m.at(b, e) / top));
      }
    }
    drawCells(p, f, x, y, cells);
  }
  drawColourScale(p, f, top, scale_label);
  f.drawAxes();
}

void paintMatrix(QPainter& p, const MatrixChart& m, QSizeF size) {
  const size_t rows = m.row_at.size();
  FrameAxis x{m.x_label, -0.5, std::max<double>(0.5, static_cast<double>(m.columns) - 0.5), true};
  FrameAxis y{m.y_label, -0.5, 0.5, true};
  if (rows > 0) y.lower = m.row_at.front() - 0.5, y.upper = m.row_at.back() + 0.5;
  bool any_dead = false, any_overloaded = false;
  for (const auto mark : m.marks) {
    any_dead = any_dead || mark == MatrixChart::Mark::kDead;
    any_overloaded = any_overloaded || mark == MatrixChart::Mark::kOverloaded;
  }
  std::vector<LegendEntry> legend;
  if (any_dead) legend.push_back({m.dead_label, kDeadColour, LegendEntry::Swatch::kBox, 1});
  if (any_overloaded)
    legend.push_back({m.overloaded_label, kOverloadedColour, LegendEntry::Swatch::kLine, 2});
  ChartFrame f(p, size, x, y, nullptr, std::move(legend), kScaleRoom);
  f.drawBackground();
  double top = 0;
  for (double v : m.values)
    if (std::isfinite(v)) top = std::max(top, v);
  if (top <= 0) top = 1;
  const auto mark = [&](size_t r, size_t c) {
    return m.marks.empty() ? MatrixChart::Mark::kNone : m.marks[r * m.columns + c];
  };
  // One pixel per cell and per whole y between the first and last row, scaled without smoothing,
  // as paintHeatmap does.
  const int height = rows > 0 ? static_cast<int>(std::lround(y.upper - y.lower)) : 0;
  if (m.columns > 0 && height > 0) {
    // Opaque, a missing row white like the plot: PDF viewers draw images with alpha unreliably.
    QImage cells(static_cast<int>(m.columns), height, QImage::Format_RGB32);
    cells.fill(Qt::white);
    for (size_t r = 0; r < rows; ++r) {
      const int line = height - 1 - static_cast<int>(std::lround(m.row_at[r] - m.row_at.front()));
      for (size_t c = 0; c < m.columns; ++c) {
        const double v = m.at(r, c);
        QColor colour = std::isfinite(v) ? viridisColor(v / top) : kMissingColour;
        if (mark(r, c) == MatrixChart::Mark::kDead) colour = kDeadColour;
        cells.setPixelColor(static_cast<int>(c), line, colour);
      }
    }
    drawCells(p, f, x, y, cells);
  }
  // Overloaded cells framed over the colour.
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  p.setPen(QPen(kOverloadedColour, 2));
  p.setBrush(Qt::NoBrush);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < m.columns; ++c) {
      if (mark(r, c) != MatrixChart::Mark::kOverloaded) continue;
      const double cx = static_cast<double>(c);
      p.drawRect(QRectF(QPointF(f.mapX(cx - 0.5), f.mapY(m.row_at[r] + 0.5)),
                        QPointF(f.mapX(cx + 0.5), f.mapY(m.row_at[r] - 0.5)))
                     .adjusted(1.5, 1.5, -1.5, -1.5));
    }
  }
  p.restore();
  drawColourScale(p, f, top, m.scale_label);
  f.drawAxes();
}

void paintPhaseStack(QPainter& p, const PhaseColumns& phases, QSizeF size) {
  const PhaseBins bins = binPhases(phases, kPhaseBins);
  double top = 0;
  for (size_t b = 0; b < bins.size(); ++b) top = std::max(top, bins.totalMs(b));
  FrameAxis x{QObject::tr("step"), 0, 1, false};
  if (bins.size() > 0) {
    x.lower = bins.centre.front() - bins.width / 2;
    x.upper = bins.centre.back() + bins.width / 2;
  }
  const FrameAxis y{QObject::tr("ms per step"), 0, top > 0 ? top * 1.08 : 1, false};
  // The legend reads top-down like the stack: the last phase first.
  std::vector<LegendEntry> legend;
  for (auto it = bins.names.rbegin(); it != bins.names.rend(); ++it)
    legend.push_back({QString::fromStdString(*it), phaseColor(*it), LegendEntry::Swatch::kBox, 1});
  ChartFrame f(p, size, x, y, nullptr, std::move(legend));
  f.drawBackground();
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setClipRect(f.plotRect());
  for (size_t b = 0; b < bins.size(); ++b) {
    const double x0 = f.mapX(bins.centre[b] - bins.width / 2);
    const double x1 = f.mapX(bins.centre[b] + bins.width / 2);
    double below = 0;
    for (size_t ph = 0; ph < bins.names.size(); ++ph) {
      const double ms = bins.mean_ms[ph][b];
      if (!(ms > 0)) continue;
      p.fillRect(QRectF(QPointF(x0, f.mapY(below + ms)), QPointF(x1, f.mapY(below))),
                 phaseColor(bins.names[ph]));
      below += ms;
    }
  }
  p.restore();
  f.drawAxes();
}

void paintRankWaits(QPainter& p, const RankColumns& ranks, QSizeF size) {
  const struct {
    const char* name;
    std::vector<double> RankSeries::*column;
  } kFigures[] = {{"compute", &RankSeries::compute_ms},
                  {"all-to-all wait", &RankSeries::a2a_ms},
                  {"all-reduce wait", &RankSeries::allreduce_ms}};
  double top = 0;
  std::vector<LegendEntry> legend;
  int colour = 0;
  for (const auto& figure : kFigures) {
    legend.push_back(
        {QObject::tr(figure.name), seriesColor(colour++), LegendEntry::Swatch::kBox, 1});
    for (const RankSeries& r : ranks.ranks) {
      const double mean = finiteMean(r.*figure.column);
      if (std::isfinite(mean)) top = std::max(top, mean);
    }
  }
  const double last = ranks.ranks.empty() ? 0 : static_cast<double>(ranks.ranks.back().rank);
  const FrameAxis x{QObject::tr("rank"), -0.6, last + 0.6, true};
  const FrameAxis y{QObject::tr("mean ms per step"), 0, top > 0 ? top * 1.08 : 1, false};
  ChartFrame f(p, size, x, y, nullptr, std::move(legend));
  f.drawBackground();
  p.save();
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setClipRect(f.plotRect());
  constexpr double kWidth = 0.25, kSpacing = 2;  // a bar in ranks; pixels between a rank's bars
  const double bar = f.mapX(kWidth) - f.mapX(0);
  colour = 0;
  for (size_t i = 0; i < std::size(kFigures); ++i) {
    const QColor c = seriesColor(colour++);
    for (const RankSeries& r : ranks.ranks) {
      const double mean = finiteMean(r.*kFigures[i].column);
      if (!(mean > 0)) continue;
      const double group = 3 * bar + 2 * kSpacing;
      const double x0 = f.mapX(static_cast<double>(r.rank)) - group / 2 + i * (bar + kSpacing);
      p.fillRect(QRectF(QPointF(x0, f.mapY(mean)), QPointF(x0 + bar, f.mapY(0))), c);
    }
  }
  p.restore();
  f.drawAxes();
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

void paintChart(QPainter& painter, const ChartContent& chart, QSizeF size) {
  painter.save();
  std::visit(Overloaded{[&](const CurveChart& c) { paintCurves(painter, c, size); },
                        [&](const LoadHeatmapChart& c) { paintHeatmap(painter, c.matrix, size); },
                        [&](const PhaseStackChart& c) { paintPhaseStack(painter, c.phases, size); },
                        [&](const RankWaitsChart& c) { paintRankWaits(painter, c.ranks, size); },
                        [&](const MatrixChart& c) { paintMatrix(painter, c, size); }},
             chart);
  painter.restore();
}

}  // namespace moe::ui
