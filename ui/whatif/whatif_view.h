// The What-if routing view: one MoE layer's captured tokens routed again under a setting the user
// moves (WhatIfControls), beside the setting they were captured under. Each side shows demand per
// expert split into kept and dropped with the capacity line (RoutingBars, on one scale), and the
// table below compares their figures (RoutingMetricsTable).
//
// The routing is moe-train's own: a `moe-train replay --serve` process (ReplayServer) started when
// the file has been read and kept until the view closes, so a change costs one routing of the
// tokens (docs/BENCHMARKS.md, "What-if round trip"). A server that fails is reported in the
// status line, with a button to start it again.
#pragma once

#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <optional>

#include "base/whatif/replay_answer.h"
#include "base/whatif/routing_setting.h"
#include "base/whatif/whatif_source.h"

class QLabel;
class QPushButton;
class QTemporaryDir;

namespace moe::ui {

class ReplayServer;
class RoutingBars;
class RoutingMetricsTable;
class WhatIfControls;

class WhatIfView : public QWidget {
  Q_OBJECT

 public:
  struct Options {
    QString tensors;  // the safetensors file
    QString prefix;   // of its layer's names ("" for a capture)
    QString title;    // what the header calls it ("run-7 · step 40 · layer 1"); empty: the file
    QString program;  // moe-train; empty: defaultTrainProgram()
  };

  explicit WhatIfView(Options options, QWidget* parent = nullptr);
  ~WhatIfView() override;

  QString title() const;
  const std::optional<WhatIfSource>& source() const { return source_; }
  ReplayServer* server() const { return server_; }
  WhatIfControls* controls() const { return controls_; }
  RoutingBars* capturedBars() const { return captured_bars_; }
  RoutingBars* whatIfBars() const { return what_if_bars_; }
  RoutingMetricsTable* metrics() const { return metrics_; }
  QString headerText() const;
  QString statusText() const;

  const std::optional<ReplayAnswer>& capturedAnswer() const { return captured_; }
  const std::optional<ReplayAnswer>& whatIfAnswer() const { return what_if_; }
  RoutingSetting whatIfAnswerSetting() const { return what_if_setting_; }  // what it answers
  // From the last change of the controls to its numbers on screen.
  double lastRoundTripMs() const { return round_trip_ms_; }

  // Starts the server again (after a failure).
  void restartServer();

 signals:
  void loaded();                      // the file is read; the server is starting
  void failed(const QString& error);  // the file cannot be routed, or the server failed
  void capturedShown();
  // The numbers of the controls' current setting are drawn, `round_trip_ms` after the change.
  void whatIfShown(double round_trip_ms);

 private:
  void buildLayout();
  void takeSource(std::optional<WhatIfSource> source, const QString& error);
  void startServer();
  void ask(const RoutingSetting& setting);
  void answered(const QString& slot, const RoutingSetting& setting, const ReplayAnswer& answer,
                double server_ms);
  void rejected(const QString& slot, const QString& error);
  void serverFailed(const QString& error);
  void setStatus(const QString& text, bool problem);
  void rescale();

  Options options_;
  std::unique_ptr<QTemporaryDir> config_dir_;  // the config file the server reads
  std::optional<WhatIfSource> source_;
  ReplayServer* server_ = nullptr;

  QLabel* header_;
  WhatIfControls* controls_;
  RoutingBars* captured_bars_;
  RoutingBars* what_if_bars_;
  RoutingMetricsTable* metrics_;
  QLabel* status_;
  QPushButton* restart_;

  std::optional<ReplayAnswer> captured_, what_if_;
  RoutingSetting what_if_setting_;
  QElapsedTimer changed_;  // since the controls last changed
  double round_trip_ms_ = 0;
};

// "f 1.25 · top-2 · batch-prioritized · noise 0.1 (seed 3) · not normalized"
QString settingText(const RoutingSetting& s);

}  // namespace moe::ui
