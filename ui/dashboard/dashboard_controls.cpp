#include "dashboard/dashboard_controls.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QToolButton>
#include <QUrl>
#include <algorithm>
#include <cmath>

namespace moe::ui {

namespace {
constexpr int kSliderSteps = 999;  // slider value v = weight 0.v (0 .. 0.999)
}

DashboardControls::DashboardControls(QWidget* parent) : QWidget(parent) {
  x_axis_ = new QComboBox(this);
  x_axis_->addItem(tr("Step"));
  x_axis_->addItem(tr("Wall time"));
  x_axis_->setToolTip(tr("The x-axis of the time plots"));
  log_y_ = new QCheckBox(tr("Log y"), this);
  log_y_->setToolTip(tr("Logarithmic y-axes (values ≤ 0 are not drawn)"));
  smoothing_ = new QSlider(Qt::Horizontal, this);
  smoothing_->setRange(0, kSliderSteps);
  smoothing_->setFixedWidth(160);
  smoothing_->setToolTip(tr("Exponential moving average of the loss, debiased (0 = raw)"));
  smoothing_value_ = new QLabel(this);
  smoothing_value_->setMinimumWidth(smoothing_value_->fontMetrics().horizontalAdvance("0.999 "));
  auto* reset = new QPushButton(tr("Reset zoom"), this);
  reset->setToolTip(tr("Fit every plot to its data again (or double-click a plot)"));
  what_if_ = new QToolButton(this);
  what_if_->setText(tr("What-if…"));
  what_if_->setToolTip(tr("Route a captured step's tokens again under other settings"));
  what_if_->setPopupMode(QToolButton::InstantPopup);
  what_if_->setMenu(new QMenu(what_if_));
  what_if_->hide();
  trace_ = new QToolButton(this);
  trace_->setText(tr("Trace…"));
  trace_->setToolTip(tr("trace.json: every phase of every rank on a timeline, for Perfetto"));
  trace_->setPopupMode(QToolButton::InstantPopup);
  trace_->setMenu(new QMenu(trace_));
  trace_->hide();
  // Whether the file exists is asked when the menu opens: the engine writes it at the run's end.
  connect(trace_->menu(), &QMenu::aboutToShow, this, &DashboardControls::fillTraceMenu);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("X-axis"), this));
  layout->addWidget(x_axis_);
  layout->addSpacing(14);
  layout->addWidget(log_y_);
  layout->addSpacing(14);
  layout->addWidget(new QLabel(tr("Smoothing"), this));
  layout->addWidget(smoothing_);
  layout->addWidget(smoothing_value_);
  layout->addSpacing(14);
  layout->addWidget(reset);
  layout->addSpacing(14);
  layout->addWidget(what_if_);
  layout->addWidget(trace_);
  layout->addStretch(1);

  QSettings settings;
  x_axis_->setCurrentIndex(settings.value("dashboard/x_axis", 0).toInt() == 1 ? 1 : 0);
  log_y_->setChecked(settings.value("dashboard/log_y", false).toBool());
  setSmoothing(settings.value("dashboard/smoothing", 0.9).toDouble());
  smoothing_value_->setText(QString::number(smoothing(), 'f', 3));

  connect(x_axis_, &QComboBox::currentIndexChanged, this, [this] {
    save();
    emit xModeChanged(xMode());
  });
  connect(log_y_, &QCheckBox::toggled, this, [this](bool on) {
    save();
    emit logYChanged(on);
  });
  connect(smoothing_, &QSlider::valueChanged, this, [this] {
    smoothing_value_->setText(QString::number(smoothing(), 'f', 3));
    save();
    emit smoothingChanged(smoothing());
  });
  connect(reset, &QPushButton::clicked, this, &DashboardControls::resetViewRequested);
}

TimeSeriesPlot::XMode DashboardControls::xMode() const {
  return x_axis_->currentIndex() == 1 ? TimeSeriesPlot::XMode::WallTime
                                      : TimeSeriesPlot::XMode::Step;
}
bool DashboardControls::logY() const {
  return log_y_->isChecked();
}
double DashboardControls::smoothing() const {
  return smoothing_->value() / 1000.0;
}

void DashboardControls::setXMode(TimeSeriesPlot::XMode mode) {
  x_axis_->setCurrentIndex(mode == TimeSeriesPlot::XMode::WallTime ? 1 : 0);
}
void DashboardControls::setLogY(bool on) {
  log_y_->setChecked(on);
}
void DashboardControls::setSmoothing(double weight) {
  smoothing_->setValue(std::clamp(static_cast<int>(std::lround(weight * 1000)), 0, kSliderSteps));
}

void DashboardControls::setCaptures(const std::vector<protocol::CaptureEvent>& captures) {
  auto same = [](const protocol::CaptureEvent& a, const protocol::CaptureEvent& b) {
    return a.step == b.step && a.layer == b.layer;
  };
  if (std::equal(captures.begin(), captures.end(), captures_.begin(), captures_.end(), same))
    return;
  captures_ = captures;
  QMenu* menu = what_if_->menu();
  menu->clear();
  for (size_t i = 0; i < captures_.size();) {
    const int64_t step = captures_[i].step;
    size_t end = i;
    while (end < captures_.size() && captures_[end].step == step) ++end;
    QMenu* into = menu;
    if (end - i > 1) into = menu->addMenu(tr("Step %1").arg(step));
    for (; i < end; ++i) {
      const int64_t layer = captures_[i].layer;
      const QString text =
          into == menu ? tr("Step %1 · layer %2").arg(step).arg(layer) : tr("Layer %1").arg(layer);
      into->addAction(text, this, [this, step, layer] { emit whatIfRequested(step, layer); });
    }
  }
  what_if_->setVisible(!captures_.empty());
}

void DashboardControls::setTraceFile(const QString& path) {
  trace_file_ = path;
  trace_->setVisible(!path.isEmpty());
}

void DashboardControls::fillTraceMenu() {
  QMenu* menu = trace_->menu();
  menu->clear();
  const QFileInfo file(trace_file_);
  if (!file.exists()) {
    menu->addAction(tr("trace.json is written when the run ends"))->setEnabled(false);
    return;
  }
  menu->addAction(tr("Show trace.json in its folder"), this,
                  [file] { QDesktopServices::openUrl(QUrl::fromLocalFile(file.absolutePath())); });
  menu->addAction(tr("Copy its path"), this,
                  [file] { QGuiApplication::clipboard()->setText(file.absoluteFilePath()); });
  menu->addSeparator();
  menu->addAction(tr("Open it at ui.perfetto.dev: \"Open trace file\""))->setEnabled(false);
}

void DashboardControls::save() const {
  QSettings settings;
  settings.setValue("dashboard/x_axis", x_axis_->currentIndex());
  settings.setValue("dashboard/log_y", logY());
  settings.setValue("dashboard/smoothing", smoothing());
}

}  // namespace moe::ui
