// SharedExpertNote: a labelled line beside the expert load bars for a decoder with a shared expert
// (moe.shared_hidden > 0, from the run's config): every token goes through it, so it is not one of
// the routed experts the bars and heatmaps count, and it says so apart from them, gated or not and
// with the tokens of the latest step. Hidden for a run without one. Live runs and replays alike:
// both fill the RunSeries it reads.
#pragma once

#include <QLabel>

#include <cstdint>

namespace moe::ui {

class RunSeries;

class SharedExpertNote : public QLabel {
  Q_OBJECT

 public:
  explicit SharedExpertNote(QWidget* parent = nullptr);

  // Re-reads only when the series' version changed.
  void updateFrom(const RunSeries& series);

 private:
  const RunSeries* source_ = nullptr;
  uint64_t source_version_ = 0;
};

}  // namespace moe::ui
