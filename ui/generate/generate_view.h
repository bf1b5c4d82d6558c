// GenerateView: the Generate tab (docs/INFERENCE.md, "In the app: Generate"). The form on the
// left starts `moe-train generate --telemetry -` (GenerateProcess); its lines build a
// GenerateSession, from which the right side draws: the text with each generated token on its top
// expert's colour in the chosen layer, the layers × tokens strip of expert choices, the live
// figures (decode tokens/s with a sparkline over the steps, time to first token, the phase split
// of a decode step) and the generated tokens' expert load. Stop ends the process and keeps the
// text. New tokens are appended as they come; the figures are redrawn at most 10 times a second.
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "base/generate/generate_events.h"
#include "base/generate/generate_process.h"
#include "base/generate/generate_session.h"

class QComboBox;
class QLabel;
class QTimer;

namespace moe::ui {

class GenerateForm;
class GeneratedLoadBars;
class PhaseShareBar;
class RoutingStrip;
class Sparkline;
class TokenTextView;

class GenerateView : public QWidget {
  Q_OBJECT

 public:
  explicit GenerateView(QWidget* parent = nullptr);

  // The moe-train to run; empty: defaultTrainProgram().
  void setTrainProgram(const QString& program) { program_ = program; }

  // Starts a generation from the form; false with the reason in the status line when the form
  // is not ready or the process cannot start.
  bool generate();
  void stop();
  bool isRunning() const { return process_->isRunning(); }

  // Draws a batch of telemetry lines (the process's, or recorded ones in tests).
  void showLines(const std::vector<GenerateLine>& lines);
  // Forgets what was shown.
  void clear();

  // The decoder layer the text and strip are coloured by; -1 before the first run.
  int colourLayer() const { return colour_layer_; }
  void setColourLayer(int layer);

  GenerateForm* form() const { return form_; }
  const GenerateSession& session() const { return session_; }
  TokenTextView* textView() const { return text_; }
  RoutingStrip* strip() const { return strip_; }
  GeneratedLoadBars* loadBars() const { return load_; }
  PhaseShareBar* phaseBar() const { return phases_; }
  Sparkline* sparkline() const { return sparkline_; }
  QComboBox* layerCombo() const { return layer_combo_; }
  QString statusText() const;
  QString figuresText() const;  // the figures row as text, for tests

 signals:
  void finished(moe::ui::GenerateProcess::Outcome outcome, const QString& message);

 private:
  QWidget* buildFigures();
  void fillLayerCombo();
  void redrawFigures();
  void onFinished(GenerateProcess::Outcome outcome, const QString& message);
  void setStatus(const QString& text, bool error = false);

  GenerateSession session_;
  GenerateProcess* process_;
  QString program_;
  int colour_layer_ = -1;

  GenerateForm* form_;
  QComboBox* layer_combo_;
  QLabel* status_;
  TokenTextView* text_;
  RoutingStrip* strip_;
  QLabel* decode_speed_;
  QLabel* ttft_;
  QLabel* prefill_speed_;
  QLabel* token_count_;
  Sparkline* sparkline_;
  PhaseShareBar* phases_;
  GeneratedLoadBars* load_;
  QTimer* redraw_;
};

}  // namespace moe::ui
