// AnalyzeJob: `moe-train analyze` run from the app (docs/INFERENCE.md, "Routing analysis") in a
// QProcess, its progress line ("analyze: batch i/n, T tokens" on stderr) turned into progress and
// an ETA, and the report it wrote read on a worker, so the GUI thread never waits. One run at a
// time.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "base/analyze/analysis_report.h"

namespace moe::ui {

struct AnalyzeRequest {
  QString model;      // a Hugging Face folder, a run directory or one of its checkpoints
  QString data;       // the corpus
  qint64 tokens = 0;  // 0: one pass over the corpus
  QList<double> capacity_factors;  // empty: analyze's default
  QString out;          // the report; empty: analyze's default (<run>/analysis/analysis.json)
  QString capture_dir;  // --capture; empty: none
};

// analyze's arguments for `request` (the program not included).
QStringList analyzeArguments(const AnalyzeRequest& request);

// "analyze: batch 3/10, 6144 tokens" -> 3 and 10; false for any other line.
bool parseAnalyzeProgress(const QString& line, int* batch, int* batches);

// Seconds left after `done` of `total` in `elapsed_s`, at the pace so far; negative: unknown.
double analyzeEta(int done, int total, double elapsed_s);

struct AnalyzeJobResult {
  bool ok = false;
  QString message;     // on failure, moe-train's last line (it names the input it refuses)
  int exit_code = -1;  // 2: bad input
  QString report_path;
  AnalysisReport report;  // ok only
};

class AnalyzeJob : public QObject {
  Q_OBJECT

 public:
  explicit AnalyzeJob(QString program, QObject* parent = nullptr);
  ~AnalyzeJob() override;

  // False (nothing started) while another runs, or without a model, corpus or report file.
  bool start(const AnalyzeRequest& request);
  void cancel();
  bool isRunning() const { return process_ != nullptr; }

 signals:
  // `eta_s` < 0 until a batch is done.
  void progress(int batch, int batches, double eta_s);
  void finished(const moe::ui::AnalyzeJobResult& result);

 private:
  void readProgress();
  void onFinished(int exit_code, QProcess::ExitStatus status);
  void fail(const QString& message, int exit_code);

  QString program_;
  QString out_;
  QProcess* process_ = nullptr;
  QByteArray stderr_;  // what has not been split into lines yet
  QString last_line_;
  QElapsedTimer clock_;
  bool cancelled_ = false;
};

}  // namespace moe::ui

Q_DECLARE_METATYPE(moe::ui::AnalyzeJobResult)
