#include "whatif/whatif_view.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>

#include "base/storage/worker_task.h"
#include "base/whatif/replay_server.h"
#include "base/whatif/synthetic_input.h"
#include "whatif/routing_bars.h"
#include "whatif/routing_metrics_table.h"
#include "whatif/whatif_controls.h"

namespace moe::ui {

namespace {

const QString kCapturedSlot = QStringLiteral("captured");
const QString kWhatIfSlot = QStringLiteral("what-if");

struct Loaded {
  std::optional<WhatIfSource> source;
  QString error;
};

// On a worker: the file's header and run config, and the config file the server will read.
Loaded load(const WhatIfView::Options& options, const QString& config_path,
            const QString& synthetic_path) {
  Loaded out;
  out.source = loadWhatIfSource(options.tensors, options.prefix, &out.error, synthetic_path);
  if (!out.source) return out;
  QFile file(config_path);
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(QByteArray::fromStdString(out.source->config.dump(2) + "\n")) < 0) {
    out.error = QObject::tr("cannot write %1: %2").arg(config_path, file.errorString());
    out.source.reset();
  }
  return out;
}

}  // namespace

QString settingText(const RoutingSetting& s) {
  QStringList parts;
  parts << QStringLiteral("f %1").arg(s.capacity_factor, 0, 'g', 4);
  parts << QStringLiteral("top-%1").arg(s.top_k);
  if (s.batch_prioritized_routing) parts << QObject::tr("batch-prioritized");
  if (s.gate_noise > 0)
    parts << QObject::tr("noise %1 (seed %2)").arg(s.gate_noise, 0, 'g', 4).arg(s.seed);
  if (!s.normalize_gate) parts << QObject::tr("not normalized");
  return parts.join(QStringLiteral(" · "));
}

WhatIfView::WhatIfView(Options options, QWidget* parent)
    : QWidget(parent), options_(std::move(options)) {
  buildLayout();
  config_dir_ = std::make_unique<QTemporaryDir>();
  if (!config_dir_->isValid()) {
    // Queued: whoever made the view connects to failed() first.
    const QString error = tr("cannot make a temporary folder: %1").arg(config_dir_->errorString());
    QMetaObject::invokeMethod(
        this, [this, error] { takeSource(std::nullopt, error); }, Qt::QueuedConnection);
    return;
  }
  const QString config_path = config_dir_->filePath(QStringLiteral("replay-config.json"));
  setStatus(tr("Reading %1 …").arg(QDir::toNativeSeparators(options_.tensors)), false);
  const QString synthetic_path =
      config_dir_->filePath(QStringLiteral("synthetic-input.safetensors"));
  runOnWorker(
      this,
      [options = options_, config_path, synthetic_path] {
        return load(options, config_path, synthetic_path);
      },
      [this](const Loaded& loaded) { takeSource(loaded.source, loaded.error); });
}

WhatIfView::~WhatIfView() = default;  // the server, a child, ends its process

QString WhatIfView::title() const {
  return options_.title.isEmpty() ? QFileInfo(options_.tensors).fileName() : options_.title;
}

void WhatIfView::buildLayout() {
  header_ = new QLabel(this);
  header_->setTextFormat(Qt::PlainText);
  header_->setWordWrap(true);
  header_->setText(QDir::toNativeSeparators(options_.tensors));
  QFont bold = header_->font();
  bold.setBold(true);
  auto* name = new QLabel(title(), this);
  name->setTextFormat(Qt::PlainText);
  name->setFont(bold);
  controls_ = new WhatIfControls(this);
  controls_->setEnabled(false);
  captured_bars_ = new RoutingBars(tr("captured"), this);
  what_if_bars_ = new RoutingBars(tr("what-if"), this);
  metrics_ = new RoutingMetricsTable(this);
  status_ = new QLabel(this);
  status_->setTextFormat(Qt::PlainText);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  restart_ = new QPushButton(tr("Start replay again"), this);
  restart_->hide();
  connect(restart_, &QPushButton::clicked, this, &WhatIfView::restartServer);
  connect(controls_, &WhatIfControls::settingChanged, this, &WhatIfView::ask);

  auto* charts = new QHBoxLayout;
  charts->setSpacing(8);
  charts->addWidget(captured_bars_, 1);
  charts->addWidget(what_if_bars_, 1);
  auto* status_row = new QHBoxLayout;
  status_row->addWidget(status_, 1);
  status_row->addWidget(restart_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->setSpacing(8);
  layout->addWidget(name);
  layout->addWidget(header_);
  layout->addWidget(controls_);
  layout->addLayout(charts, 1);
  layout->addWidget(metrics_);
  layout->addLayout(status_row);
}

QString WhatIfView::headerText() const {
  return header_->text();
}

QString WhatIfView::statusText() const {
  return status_->text();
}

void WhatIfView::setStatus(const QString& text, bool problem) {
  status_->setText(text);
  status_->setStyleSheet(problem ? QStringLiteral("QLabel { color: #b91c1c; }") : QString());
}

void WhatIfView::takeSource(std::optional<WhatIfSource> source, const QString& error) {
  if (!source) {
    header_->setText(QDir::toNativeSeparators(options_.tensors));
    setStatus(error, true);
    captured_bars_->showMessage(tr("nothing to route"));
    what_if_bars_->showMessage(tr("nothing to route"));
    emit failed(error);
    return;
  }
  source_ = std::move(source);
  const RoutingLayerShape& l = source_->layer;
  QString text = tr("%1 experts · %2 tokens · dim %3 · hidden %4 · %5 gate")
                     .arg(l.experts)
                     .arg(source_->tokens)
                     .arg(l.dim)
                     .arg(l.hidden)
                     .arg(QString::fromStdString(l.gate));
  if (!source_->prefix.isEmpty()) text += tr(" · layer %1").arg(source_->prefix);
  if (source_->synthetic_input) {
    text += tr(" · no input in the file: synthetic tokens (standard normal, seed %1)")
                .arg(kSyntheticSeed);
  }
  text += "\n" +
          tr("Captured setting (%1): %2").arg(source_->config_note, settingText(source_->captured));
  text += "\n" + QDir::toNativeSeparators(source_->tensors);
  header_->setText(text);
  controls_->setLayer(l.experts, source_->captured);
  controls_->setEnabled(true);
  emit loaded();
  startServer();
}

void WhatIfView::startServer() {
  ReplayServer::Launch launch;
  launch.program = options_.program;
  launch.config_file = config_dir_->filePath(QStringLiteral("replay-config.json"));
  launch.tensors = source_->server_tensors;
  launch.prefix = source_->prefix;
  server_ = new ReplayServer(launch, this);
  connect(server_, &ReplayServer::ready, this,
          [this] { setStatus(tr("moe-train replay is ready: move a setting"), false); });
  connect(server_, &ReplayServer::answered, this, &WhatIfView::answered);
  connect(server_, &ReplayServer::rejected, this,
          [this](const QString& slot, const RoutingSetting&, const QString& error) {
            rejected(slot, error);
          });
  connect(server_, &ReplayServer::failed, this, &WhatIfView::serverFailed);
  setStatus(tr("Starting moe-train replay …"), false);
  server_->start();
  server_->request(kCapturedSlot, source_->captured);
  ask(controls_->setting());
}

void WhatIfView::restartServer() {
  if (!source_) return;
  delete server_;
  server_ = nullptr;
  restart_->hide();
  captured_.reset();
  what_if_.reset();
  startServer();
}

void WhatIfView::ask(const RoutingSetting& setting) {
  if (!server_) return;
  changed_.start();
  server_->request(kWhatIfSlot, setting);
}

void WhatIfView::answered(const QString& slot, const RoutingSetting& setting,
                          const ReplayAnswer& answer, double server_ms) {
  if (slot == kCapturedSlot) {
    captured_ = answer;
    captured_bars_->showAnswer(answer, settingText(setting));
  } else {
    what_if_ = answer;
    what_if_setting_ = setting;
    what_if_bars_->showAnswer(answer, settingText(setting));
  }
  rescale();
  metrics_->showRoutings(captured_, what_if_);
  if (slot == kCapturedSlot) {
    emit capturedShown();
    return;
  }
  if (setting != controls_->setting()) return;  // the controls have moved on: more to come
  round_trip_ms_ = static_cast<double>(changed_.nsecsElapsed()) / 1e6;
  setStatus(tr("What-if routed and drawn %1 ms after the change (moe-train: %2 ms routing, "
               "%3 ms with the pipe)")
                .arg(round_trip_ms_, 0, 'f', 1)
                .arg(answer.ms, 0, 'f', 1)
                .arg(server_ms, 0, 'f', 1),
            false);
  emit whatIfShown(round_trip_ms_);
}

void WhatIfView::rejected(const QString& slot, const QString& error) {
  RoutingBars* bars = slot == kCapturedSlot ? captured_bars_ : what_if_bars_;
  (slot == kCapturedSlot ? captured_ : what_if_).reset();
  bars->showMessage(tr("refused"));
  metrics_->showRoutings(captured_, what_if_);
  setStatus(tr("moe-train replay refused the %1 setting: %2").arg(slot, error), true);
}

void WhatIfView::serverFailed(const QString& error) {
  setStatus(error, true);
  restart_->show();
  emit failed(error);
}

// Both sides on one scale: the taller of the two decides.
void WhatIfView::rescale() {
  const double top = std::max(captured_ ? captured_bars_->highest() : 0.0,
                              what_if_ ? what_if_bars_->highest() : 0.0);
  captured_bars_->setTop(top);
  what_if_bars_->setTop(top);
}

}  // namespace moe::ui
