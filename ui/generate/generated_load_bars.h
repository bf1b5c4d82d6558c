// GeneratedLoadBars: the expert load of the generated tokens in one MoE layer: per expert how
// often a generated token chose it (each of the k choices counts), each bar in the expert's
// colour as the text and the strip show it, with a dashed line at the fair share (choices over
// experts). The title names the layer, the tokens and the busiest expert's share.
#pragma once

#include <QString>

#include <qcustomplot.h>

#include <vector>

namespace moe::ui {

class GenerateSession;

class GeneratedLoadBars : public QCustomPlot {
  Q_OBJECT

 public:
  explicit GeneratedLoadBars(QWidget* parent = nullptr);

  // Draws `layer`'s load from the session (nothing when it is no MoE layer of it).
  void showLayer(const GenerateSession& session, int layer);

  // What is drawn, for tests: each expert's count, and the title.
  std::vector<double> counts() const;
  QString title() const;

 private:
  void setExperts(int experts);

  std::vector<QCPBars*> bars_;  // one per expert: QCPBars has one brush
  QCPGraph* fair_ = nullptr;
  QCPTextElement* title_ = nullptr;
};

}  // namespace moe::ui
