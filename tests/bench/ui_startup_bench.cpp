// ui_startup_bench: the main window opening on a large runs root (issue 9's benchmark).
//
// Writes a runs root of R runs of S steps each (metrics.jsonl: run_start, a step line per step,
// an eval every 1 000 steps, run_end) under a temporary XDG_DATA_HOME, so that the app's own
// store (runs.db) and runs root are the bench's, then starts a real MainWindow, as moe-studio
// does, and measures:
//   - time to first paint: from constructing the window to its first paint event;
//   - time until the runs table is complete: until the Runs view's rescan answered with all R
//     runs in its model (the rescan parses every metrics.jsonl, on the run store's worker);
//   - event-loop latency while that happens: how late a 5 ms timer fires (max and p99), from
//     the show to the complete table.
//
//   QT_QPA_PLATFORM=offscreen ui_startup_bench [--runs 200] [--steps 20000] [--keep DIR]
// --keep DIR writes the runs root under DIR (reused when it is there) instead of a temporary
// folder; its runs.db is removed first, so every start indexes every run.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "experiment/experiment_editor.h"
#include "experiment/experiment_file_actions.h"
#include "runs/runs_table_model.h"
#include "runs/runs_view.h"
#include "window/main_window.h"

namespace {

struct Options {
  int runs = 200;
  int steps = 20000;
  QString keep;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(
      stderr, "ui_startup_bench: %s\nusage: ui_startup_bench [--runs N] [--steps N] [--keep DIR]\n",
      why);
  std::exit(2);
}

int positive(const char* flag, const char* text) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v <= 0 || v > 10000000) {
    std::fprintf(stderr, "ui_startup_bench: %s %s: not a positive integer\n", flag, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + a).c_str());
    if (a == "--runs") {
      o.runs = positive("--runs", argv[++i]);
    } else if (a == "--steps") {
      o.steps = positive("--steps", argv[++i]);
    } else if (a == "--keep") {
      o.keep = QString::fromLocal8Bit(argv[++i]);
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  return o;
}

// One run directory as moe-train leaves it (the telemetry only: what the store indexes).
bool writeRun(const QString& dir, int index, int steps) {
  if (!QDir().mkpath(dir)) return false;
  QFile file(dir + "/metrics.jsonl");
  if (!file.open(QIODevice::WriteOnly)) return false;
  std::string out;
  out.reserve(4 << 20);
  char line[512];
  std::snprintf(line, sizeof line,
                R"({"v":1,"type":"run_start","t":0,"run_id":"20260101-%06d-bench","config":)"
                R"({"name":"bench-%d","train":{"steps":%d},"moe":{"experts":64,"top_k":2}},)"
                R"("world_size":1,"device":"cpu","host":"bench","engine_version":"0.1.0",)"
                R"("torch_version":"2"})"
                "\n",
                index, index, steps);
  out += line;
  for (int s = 1; s <= steps; ++s) {
    const double t = 0.05 * s, loss = 2.5 / std::sqrt(s) + 0.01 * (index % 7);
    std::snprintf(line, sizeof line,
                  R"({"v":1,"type":"step","t":%.3f,"step":%d,"loss":%.6f,"task_loss":%.6f,)"
                  R"("aux_loss":0.0123,"z_loss":0.0004,"lr":0.001,"grad_norm":1.25,)"
                  R"("tokens":4096,"tokens_per_s":81920.5,"step_ms":50.0})"
                  "\n",
                  t, s, loss, loss - 0.01);
    out += line;
    if (s % 1000 == 0) {
      std::snprintf(line, sizeof line,
                    R"({"v":1,"type":"eval","t":%.3f,"step":%d,"loss":%.6f,"accuracy":%.4f})"
                    "\n",
                    t, s, loss, 1.0 - loss / 3);
      out += line;
    }
    if (out.size() > (4u << 20) - 1024) {
      if (file.write(out.data(), static_cast<qint64>(out.size())) != qint64(out.size()))
        return false;
      out.clear();
    }
  }
  std::snprintf(line, sizeof line,
                R"({"v":1,"type":"run_end","t":%.3f,"status":"completed","steps":%d})"
                "\n",
                0.05 * steps, steps);
  out += line;
  return file.write(out.data(), static_cast<qint64>(out.size())) == qint64(out.size());
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

double peakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parseOptions(argc, argv);
  QTemporaryDir temp;
  const QString base = o.keep.isEmpty() ? temp.path() : QDir(o.keep).absolutePath();
  if (base.isEmpty()) usage("cannot create a temporary folder");
  // The app's data and settings folders: the bench's own.
  qputenv("XDG_DATA_HOME", QFile::encodeName(base + "/data"));
  qputenv("XDG_CONFIG_HOME", QFile::encodeName(base + "/config"));
  const QString root = base + "/data/moe-studio/runs";
  QFile::remove(base + "/data/moe-studio/runs.db");

  QElapsedTimer clock;
  clock.start();
  int written = 0;
  for (int i = 0; i < o.runs; ++i) {
    const QString dir = root + QStringLiteral("/20260101-%1-bench").arg(i, 6, 10, QChar('0'));
    if (QFile::exists(dir + "/metrics.jsonl")) continue;
    if (!writeRun(dir, i, o.steps)) {
      std::fprintf(stderr, "ui_startup_bench: cannot write %s\n", qPrintable(dir));
      return 1;
    }
    ++written;
  }
  std::printf("runs root: %s (%d runs of %d steps, %d written in %.1f s)\n", qPrintable(root),
              o.runs, o.steps, written, clock.elapsed() / 1e3);

  QApplication app(argc, argv);
  QApplication::setOrganizationName("MoE Studio bench");
  QApplication::setApplicationName("ui_startup_bench");

  QElapsedTimer since;
  since.start();
  moe::ui::MainWindow window;
  window.editor()->fileActions()->openPreset("fashion-mnist");
  const double constructed_ms = since.nsecsElapsed() / 1e6;

  double first_paint_ms = -1, complete_ms = -1;
  // The first paint event of any widget of the window.
  struct PaintSpy : QObject {
    double* at;
    QElapsedTimer* since;
    QWidget* window;
    bool eventFilter(QObject* o, QEvent* e) override {
      if (e->type() == QEvent::Paint && *at < 0 && o->isWidgetType() &&
          static_cast<QWidget*>(o)->window() == window)
        *at = since->nsecsElapsed() / 1e6;
      return false;
    }
  } spy;
  spy.at = &first_paint_ms;
  spy.since = &since;
  spy.window = &window;
  app.installEventFilter(&spy);

  moe::ui::RunsView* runs = window.runsView();
  QObject::connect(runs, &moe::ui::RunsView::rescanFinished, &app, [&] {
    if (complete_ms < 0 && runs->model()->rowCount() >= o.runs) {
      complete_ms = since.nsecsElapsed() / 1e6;
      QTimer::singleShot(0, &app, &QApplication::quit);
    }
  });

  // The probe: a 5 ms timer's lateness, from the show until the table is complete.
  constexpr double kProbeMs = 5;
  std::vector<double> late;
  QElapsedTimer tick;
  QTimer probe;
  probe.setTimerType(Qt::PreciseTimer);
  probe.setInterval(static_cast<int>(kProbeMs));
  QObject::connect(&probe, &QTimer::timeout, &app, [&] {
    late.push_back(std::max(0.0, tick.nsecsElapsed() / 1e6 - kProbeMs));
    tick.restart();
  });
  window.resize(1366, 860);
  window.show();
  tick.start();
  probe.start();
  QTimer::singleShot(600000, &app, [&] {
    std::fprintf(stderr, "ui_startup_bench: the table was not complete after 10 minutes\n");
    app.exit(1);
  });
  const int status = app.exec();
  probe.stop();
  if (status != 0) return status;

  std::printf("window constructed: %.1f ms\n", constructed_ms);
  std::printf("first paint of the main window: %.1f ms\n", first_paint_ms);
  std::printf("runs table complete (%d rows): %.1f ms\n", runs->model()->rowCount(), complete_ms);
  std::printf(
      "event-loop latency meanwhile (%zu probes of %.0f ms): p50 %.2f ms, p99 %.2f ms, "
      "max %.2f ms\n",
      late.size(), kProbeMs, percentile(late, 0.5), percentile(late, 0.99),
      late.empty() ? 0.0 : *std::max_element(late.begin(), late.end()));
  std::printf("peak RSS %.0f MB\n", peakRssMb());
  return first_paint_ms >= 0 ? 0 : 1;
}
