#include "generate/generated_load_bars.h"

#include <algorithm>
#include <numeric>

#include "base/generate/generate_session.h"
#include "draw/palette.h"
#include "widgets/plot_style.h"

namespace moe::ui {

GeneratedLoadBars::GeneratedLoadBars(QWidget* parent) : QCustomPlot(parent) {
  stylePlot(this, tr("expert"), tr("choices"));
  setInteractions({});  // every expert fits; the axes follow the data
  setMinimumHeight(150);
  xAxis->grid()->setVisible(false);
  auto experts = QSharedPointer<QCPAxisTickerFixed>::create();
  experts->setTickStep(1);
  experts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  xAxis->setTicker(experts);
  xAxis->setSubTicks(false);
  fair_ = addGraph();
  fair_->setPen(QPen(QColor(60, 60, 60), 1.2, Qt::DashLine));
  plotLayout()->insertRow(0);
  QFont title_font = font();
  title_font.setBold(true);
  title_ = new QCPTextElement(this, tr("expert load of the generated tokens"), title_font);
  plotLayout()->addElement(0, 0, title_);
}

void GeneratedLoadBars::setExperts(int experts) {
  if (static_cast<int>(bars_.size()) == experts) return;
  for (QCPBars* bars : bars_) removePlottable(bars);
  bars_.clear();
  for (int e = 0; e < experts; ++e) {
    auto* bars = new QCPBars(xAxis, yAxis);
    bars->setBrush(expertColor(e));
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.8);
    bars_.push_back(bars);
  }
}

void GeneratedLoadBars::showLayer(const GenerateSession& session, int layer) {
  const int position = session.layerPosition(layer);
  const std::vector<int64_t> none;
  const std::vector<int64_t>& load =
      position < 0 ? none : session.load()[static_cast<size_t>(position)];
  setExperts(static_cast<int>(load.size()));
  const int64_t choices = std::accumulate(load.begin(), load.end(), int64_t{0});
  double top = 0;
  for (size_t e = 0; e < load.size(); ++e) {
    const double count = static_cast<double>(load[e]);
    bars_[e]->data()->set({QCPBarsData(static_cast<double>(e), count)});
    top = std::max(top, count);
  }
  const int experts = static_cast<int>(load.size());
  fair_->data()->clear();
  if (experts > 0 && choices > 0) {
    const double fair = static_cast<double>(choices) / experts;
    fair_->setData({-0.5, experts - 0.5}, {fair, fair});
    title_->setText(tr("layer %1 · %2 choices of %3 tokens · busiest expert %4 % (fair %5 %)")
                        .arg(layer)
                        .arg(choices)
                        .arg(session.generatedCount())
                        .arg(100.0 * top / static_cast<double>(choices), 0, 'f', 0)
                        .arg(100.0 / experts, 0, 'f', 0));
  } else {
    title_->setText(position < 0 ? tr("expert load of the generated tokens")
                                 : tr("layer %1 · no generated token yet").arg(layer));
  }
  xAxis->setRange(-0.6, std::max(1, experts) - 0.4);
  yAxis->setRange(0, top * 1.1 + 1);
  replot(QCustomPlot::rpQueuedReplot);
}

std::vector<double> GeneratedLoadBars::counts() const {
  std::vector<double> out;
  for (QCPBars* bars : bars_)
    out.push_back(bars->data()->isEmpty() ? 0 : bars->data()->begin()->value);
  return out;
}

QString GeneratedLoadBars::title() const {
  return title_->text();
}

}  // namespace moe::ui
