#include "base/report/analysis_charts.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/report/report_document.h"
#include "base/report/report_format.h"

namespace moe::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr size_t kMaxNamedCurves = 12;  // more layers than this: the curves go unnamed

// A share as a percentage with one decimal ("37.2 %").
QString percent(double share) {
  return QStringLiteral("%1 %").arg(100.0 * share, 0, 'f', 1);
}

}  // namespace

MatrixChart loadShareMatrix(const AnalysisReport& report) {
  MatrixChart m;
  m.x_label = QObject::tr("expert");
  m.y_label = QObject::tr("layer");
  m.scale_label = QObject::tr("% of the layer's choices");
  m.dead_label = QObject::tr("dead (no token)");
  m.overloaded_label = QObject::tr("overloaded (> %1× the mean load)").arg(kOverloaded);
  for (const auto& l : report.layers)
    m.columns = std::max(m.columns, static_cast<size_t>(l.experts));
  std::vector<const AnalyzedLayer*> layers;
  for (const auto& l : report.layers) layers.push_back(&l);
  std::sort(layers.begin(), layers.end(),
            [](const auto* a, const auto* b) { return a->layer < b->layer; });
  for (const AnalyzedLayer* l : layers) {
    m.row_at.push_back(static_cast<double>(l->layer));
    for (size_t e = 0; e < m.columns; ++e) {
      const auto expert = static_cast<int64_t>(e);
      const bool has = expert < l->experts;
      m.values.push_back(has ? 100.0 * l->loadShare(expert) : kNaN);
      auto mark = MatrixChart::Mark::kNone;
      if (has && l->load[e] == 0) mark = MatrixChart::Mark::kDead;
      if (has && l->overloaded(expert)) mark = MatrixChart::Mark::kOverloaded;
      m.marks.push_back(mark);
    }
  }
  return m;
}

MatrixChart coSelectionMatrix(const AnalyzedLayer& layer) {
  MatrixChart m;
  m.x_label = QObject::tr("expert");
  m.y_label = QObject::tr("expert");
  m.scale_label = QObject::tr("% of tokens choosing both");
  m.columns = static_cast<size_t>(layer.experts);
  const double tokens = static_cast<double>(std::max<int64_t>(layer.tokens, 1));
  for (int64_t i = 0; i < layer.experts; ++i) {
    m.row_at.push_back(static_cast<double>(i));
    for (int64_t j = 0; j < layer.experts; ++j)
      m.values.push_back(i == j ? kNaN
                                : 100.0 * static_cast<double>(layer.coSelected(i, j)) / tokens);
  }
  return m;
}

CurveChart droppedShareCurves(const AnalysisReport& report) {
  CurveChart chart(QObject::tr("capacity factor"), QObject::tr("% of choices dropped"), true);
  const bool named = report.layers.size() <= kMaxNamedCurves;
  int colour = 0;
  for (const auto& l : report.layers) {
    std::vector<double> x, y;
    for (const auto& d : l.capacity) {
      x.push_back(d.factor);
      y.push_back(100.0 * d.dropped_share);
    }
    chart.add(
        lineSeries(named ? QObject::tr("layer %1").arg(l.layer) : QString(), x, y, colour++, 1.5));
  }
  return chart;
}

ReportTable balanceTable(const AnalysisReport& report) {
  ReportTable t;
  t.header << QObject::tr("Layer") << QObject::tr("E") << QObject::tr("k") << QObject::tr("CV")
           << QObject::tr("Max/mean") << QObject::tr("Dead") << QObject::tr("Overloaded");
  const auto& factors = report.layers.front().capacity;
  for (const auto& d : factors) t.header << QObject::tr("Drop f=%1").arg(d.factor);
  for (int c = 1; c < t.header.size(); ++c) t.numeric_columns << c;
  for (const auto& l : report.layers) {
    int64_t overloaded = 0;
    for (int64_t e = 0; e < l.experts; ++e) overloaded += l.overloaded(e) ? 1 : 0;
    // Fixed decimals, so that a column's numbers line up and compare at a glance.
    QStringList row{QString::number(l.layer),
                    QString::number(l.experts),
                    QString::number(l.top_k),
                    QString::number(l.cv, 'f', 3),
                    QString::number(l.max_over_mean, 'f', 2),
                    QString::number(l.dead_experts),
                    QString::number(overloaded)};
    for (size_t f = 0; f < factors.size(); ++f) {
      row << (f < l.capacity.size() ? percent(l.capacity[f].dropped_share) : QString());
    }
    t.rows << row;
  }
  return t;
}

ReportTable topTokensTable(const AnalyzedLayer& l, size_t max_tokens) {
  ReportTable t;
  t.header << QObject::tr("Expert") << QObject::tr("Load") << QObject::tr("Share")
           << QObject::tr("Top tokens (count)");
  t.numeric_columns << 0 << 1 << 2;
  for (int64_t e = 0; e < l.experts; ++e) {
    QStringList tokens;
    const auto& top = l.top_tokens[static_cast<size_t>(e)];
    for (size_t i = 0; i < top.size() && i < max_tokens; ++i)
      tokens << QStringLiteral("%1 (%2)").arg(tokenLabel(top[i])).arg(top[i].count);
    t.rows << QStringList{QString::number(e),
                          QStringLiteral("%L1").arg(l.load[static_cast<size_t>(e)]),
                          percent(l.loadShare(e)), tokens.join(QStringLiteral("  "))};
  }
  return t;
}

size_t worstBalancedLayer(const AnalysisReport& report) {
  size_t worst = 0;
  for (size_t i = 1; i < report.layers.size(); ++i)
    if (report.layers[i].cv > report.layers[worst].cv) worst = i;
  return worst;
}

}  // namespace moe::ui
