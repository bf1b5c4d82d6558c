// screenshot_tour: drives moe-studio's main window through what a user sees — the experiment
// editor, a live run, each dashboard page, the runs table and a comparison — and saves a PNG of
// the window at each stop (QWidget::grab, so the pictures are the app's own rendering).
// Real runs: two small byte-level lm experiments trained by moe-train, and a short run of the
// default image classifier (its evals report accuracy).
//
//   screenshot_tour MOE_TRAIN OUT_DIR     (tests/ui/take_screenshots.sh runs it under Xvfb)
#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QTabWidget>
#include <QThread>
#include <cstdio>
#include <functional>

#include "base/experiment/experiment_document.h"
#include "base/run/run.h"
#include "base/runs/run_manager.h"
#include "dashboard/run_dashboard.h"
#include "dashboard/training_page.h"
#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "runs/runs_view.h"
#include "widgets/time_series_plot.h"
#include "window/main_window.h"

using namespace moe::ui;

namespace {

// Spins the event loop until `done` or the timeout; false on timeout.
bool waitUntil(const std::function<bool()>& done, int timeout_ms) {
  QDeadlineTimer deadline(timeout_ms);
  while (!done()) {
    if (deadline.hasExpired()) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 50);
    QThread::msleep(10);
  }
  return true;
}

void settle(int ms = 600) {
  waitUntil([] { return false; }, ms);
}

bool save(QWidget* window, const QString& path) {
  settle();
  const bool ok = window->grab().save(path);
  std::printf("%s %s\n", ok ? "screenshot:" : "FAILED to write", qPrintable(path));
  return ok;
}

QString lmExperiment(const QString& name, const QString& moe, double aux_loss_weight = 0.01) {
  return QString(R"({"name": "%1",
    "model": {"kind": "lm", "dim": 64, "layers": 4, "heads": 4, "seq_len": 64},
    "moe": %2,
    "train": {"steps": 400, "batch_size": 16, "lr": 0.003, "optimizer": "adamw",
              "schedule": "cosine", "warmup_steps": 30, "threads": 2, "eval_every": 100,
              "eval_batches": 4, "aux_loss_weight": %3}})")
      .arg(name, moe)
      .arg(aux_loss_weight);
}

Run* runToEnd(MainWindow& window, const QString& config) {
  window.editor()->document()->setText(config);
  Run* run = window.runExperiment();
  if (run && !waitUntil([run] { return !run->isActive(); }, 15 * 60 * 1000)) return nullptr;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("MoE Studio");
  QApplication::setApplicationName("moe-studio");
  if (argc != 3) {
    std::fprintf(stderr, "usage: screenshot_tour MOE_TRAIN OUT_DIR\n");
    return 2;
  }
  const QString out = argv[2];
  QDir().mkpath(out);
  MainWindow window;
  window.runs()->setTrainProgram(argv[1]);
  window.resize(1366, 860);
  window.show();
  window.editor()->fileActions()->openPreset("fashion-mnist");
  bool ok = save(&window, out + "/experiment-editor.png");

  // A balanced run (top-2, aux loss): the live dashboard part way, then each page at the end.
  window.editor()->document()->setText(lmExperiment(
      "lm-e8-top2", R"({"experts": 8, "top_k": 2, "hidden": 128, "capacity_factor": 1.25})"));
  Run* run = window.runExperiment();
  if (!run || !waitUntil([run] { return run->step() >= 150; }, 10 * 60 * 1000)) return 1;
  ok &= save(&window, out + "/run-dashboard.png");
  if (!waitUntil([run] { return !run->isActive(); }, 15 * 60 * 1000)) return 1;
  auto* dashboard = qobject_cast<RunDashboard*>(window.tabs()->currentWidget());
  const char* pages[] = {"dashboard-training", "dashboard-expert-load", "dashboard-imbalance",
                         "dashboard-phases"};
  // The hover read-out, as if the mouse rested on step 250 of the loss (the others follow it).
  for (TimeSeriesPlot* plot : dashboard->training()->plots()) plot->showHover(250);
  for (int page = 0; page < 4; ++page) {
    dashboard->pages()->setCurrentIndex(page);
    ok &= save(&window, out + "/" + pages[page] + ".png");
  }

  // An unbalanced one (top-1, no aux loss, tight capacity) to compare against.
  Run* skewed = runToEnd(
      window,
      lmExperiment("lm-e8-top1-noaux",
                   R"({"experts": 8, "top_k": 1, "hidden": 128, "capacity_factor": 1.0})", 0));
  if (!skewed) return 1;
  qobject_cast<RunDashboard*>(window.tabs()->currentWidget())->pages()->setCurrentIndex(2);
  ok &= save(&window, out + "/dashboard-imbalance-top1.png");
  window.tabs()->setCurrentWidget(window.runsView());
  ok &= save(&window, out + "/runs.png");
  window.compareRuns({run->runDir(), skewed->runDir()});
  ok &= save(&window, out + "/compare.png");

  // The default experiment, shortened: the Training page with eval accuracy.
  window.editor()->fileActions()->openPreset("fashion-mnist");
  nlohmann::json classifier = window.editor()->document()->json();
  classifier["name"] = "fashion-mnist-short";
  classifier["train"]["steps"] = 280;
  classifier["train"]["eval_every"] = 70;
  classifier["train"]["eval_batches"] = 20;
  classifier["train"]["warmup_steps"] = 20;
  if (!runToEnd(window, QString::fromStdString(classifier.dump(2)))) return 1;
  qobject_cast<RunDashboard*>(window.tabs()->currentWidget())->pages()->setCurrentIndex(0);
  ok &= save(&window, out + "/dashboard-training-accuracy.png");
  return ok ? 0 : 1;
}
