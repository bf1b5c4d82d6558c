// The colours every plot of the app uses, the dashboard's and the reports' alike.
#pragma once

#include <QColor>

#include <string>

namespace moe::ui {

// Series colours, in the order plots use them (colour-blind safe, Okabe–Ito).
QColor seriesColor(int index);

// An expert's colour wherever one expert is told apart from the others (the Generate tab's
// tokens, strip and load bars): the series colours, then the same lighter, then darker, so 21
// experts differ; beyond that they repeat (expert e and e + 21 look alike).
QColor expertColor(int expert);

// A phase's colour: its place in kPhaseNames' palette order, grey for "other", a lighter palette
// colour (stable per name) for names outside kPhaseNames.
QColor phaseColor(const std::string& name);

// Sequential and perceptually uniform (matplotlib's viridis, as nine stops), for absolute values
// such as tokens routed: t in [0, 1], interpolated in RGB between the stops.
inline constexpr int kViridisStops = 9;
QColor viridisStop(int index);  // the stop at index / (kViridisStops - 1)
QColor viridisColor(double t);

}  // namespace moe::ui
