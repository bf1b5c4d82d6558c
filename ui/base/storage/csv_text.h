// CSV text as every export of the app writes it (RFC 4180): the metrics export, a plot's data,
// the Profiler's sweep table and the Scaling view's table.
#pragma once

#include <QString>

namespace moe::ui {

// One field: quoted when it holds a comma, quote or line break, its quotes doubled.
QString csvField(const QString& text);
// A number as the shortest text that reads back as the same double; NaN (a gap) is empty.
QString csvNumber(double v);

}  // namespace moe::ui
