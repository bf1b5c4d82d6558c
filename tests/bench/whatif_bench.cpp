// whatif_bench: the What-if view's round trip on a captured layer of E = 64 experts and
// N = 4096 tokens (issue 13's figure).
//
// moe-train trains one step of Tutel's helloworld model (dim 512, hidden 256, 64 experts, top-2,
// 16 x 256 tokens) with telemetry.capture_every 1, and a real WhatIfView opens the capture. It
// reports the time from opening the view to the captured numbers on screen (read the header,
// start `moe-train replay --serve`, load the tensors, route), then, for each of --changes
// settings (capacity factors 0.25 … 2.0, top-1 and top-2 in turn, alternating batch-prioritized
// routing), the time from the change of the controls to its numbers drawn (the view's
// lastRoundTripMs: request written, routed, answered, bars and table redrawn), as median, p90
// and max, beside the server's own routing time. One change at a time: each waits for the last.
//
//   QT_QPA_PLATFORM=offscreen whatif_bench [--changes 50] [--run-dir DIR] [--screenshot PNG]
// --run-dir keeps the run (and reuses it when it holds a capture); --screenshot saves the view
// (1400 x 900) with the captured setting beside capacity factor 0.75, top-1.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "whatif/whatif_controls.h"
#include "whatif/whatif_view.h"

using namespace moe::ui;

namespace {

const char* kConfig =
    R"({"name":"whatif-bench","model":{"kind":"helloworld","dim":512,"seq_len":256},)"
    R"("moe":{"experts":64,"hidden":256,"top_k":2,"capacity_factor":1.0},)"
    R"("train":{"steps":1,"batch_size":16},)"
    R"("telemetry":{"capture_every":1,"capture_max_mb":1024}})";

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5)];
}

QString findCapture(const QString& run_dir) {
  const QDir captures(run_dir + "/captures");
  for (const QString& step : captures.entryList({"step-*"}, QDir::Dirs, QDir::Name)) {
    const QString file = captures.filePath(step + "/layer-0.safetensors");
    if (QFile::exists(file)) return file;
  }
  return {};
}

bool waitFor(QSignalSpy& spy, int count) {
  while (spy.count() < count)
    if (!spy.wait(120000)) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  int changes = 50;
  QString run_dir, screenshot;
  const QStringList args = app.arguments();
  for (int i = 1; i + 1 < args.size(); i += 2) {
    if (args[i] == "--changes") changes = std::max(1, args[i + 1].toInt());
    if (args[i] == "--run-dir") run_dir = args[i + 1];
    if (args[i] == "--screenshot") screenshot = args[i + 1];
  }
  QTemporaryDir temp;
  if (run_dir.isEmpty()) run_dir = temp.filePath("run");
  QString capture = findCapture(run_dir);
  if (capture.isEmpty()) {
    QFile config(temp.filePath("whatif-bench.json"));
    if (!config.open(QIODevice::WriteOnly)) return 1;
    config.write(kConfig);
    config.close();
    QProcess train;
    train.setStandardOutputFile(QProcess::nullDevice());
    train.start(MOE_TRAIN_BIN, {"run", "--config", config.fileName(), "--run-dir", run_dir});
    train.waitForFinished(-1);
    capture = findCapture(run_dir);
    if (train.exitCode() != 0 || capture.isEmpty()) {
      std::fprintf(stderr, "moe-train run failed:\n%s\n", train.readAllStandardError().constData());
      return 1;
    }
  }
  std::printf("capture: %s (%.1f MB)\n", qPrintable(capture),
              static_cast<double>(QFile(capture).size()) / 1e6);

  WhatIfView::Options options;
  options.tensors = capture;
  options.program = MOE_TRAIN_BIN;
  options.title = "whatif-bench · step 1 · layer 0";
  QElapsedTimer opened;
  opened.start();
  WhatIfView view(options);
  view.resize(1400, 900);
  view.show();
  QSignalSpy captured(&view, &WhatIfView::capturedShown);
  QSignalSpy shown(&view, &WhatIfView::whatIfShown);
  QSignalSpy failed(&view, &WhatIfView::failed);
  if (!waitFor(captured, 1) || !waitFor(shown, 1)) {
    std::fprintf(stderr, "no numbers: %s\n", qPrintable(view.statusText()));
    return 1;
  }
  std::printf("open -> captured numbers on screen: %.0f ms (experts %lld, tokens %lld)\n",
              static_cast<double>(opened.elapsed()),
              static_cast<long long>(view.source()->layer.experts),
              static_cast<long long>(view.source()->tokens));

  std::vector<double> round_trips, server_ms;
  RoutingSetting s = view.source()->captured;
  for (int i = 0; i < changes; ++i) {
    s.capacity_factor = 0.25 * (1 + i % 8);
    s.top_k = 1 + (i / 8) % 2;
    s.batch_prioritized_routing = (i / 16) % 2 == 1;
    const int before = shown.count();
    view.controls()->setSetting(s);
    if (!waitFor(shown, before + 1) || !failed.isEmpty()) {
      std::fprintf(stderr, "change %d: %s\n", i, qPrintable(view.statusText()));
      return 1;
    }
    round_trips.push_back(view.lastRoundTripMs());
    server_ms.push_back(view.whatIfAnswer()->ms);
  }
  std::printf("change -> numbers on screen, %d changes: median %.1f ms, p90 %.1f ms, max %.1f ms\n",
              changes, percentile(round_trips, 0.5), percentile(round_trips, 0.9),
              percentile(round_trips, 1.0));
  std::printf("  of which moe-train's routing: median %.1f ms\n", percentile(server_ms, 0.5));

  if (!screenshot.isEmpty()) {
    RoutingSetting shot = view.source()->captured;
    shot.capacity_factor = 0.75;
    shot.top_k = 1;
    const int before = shown.count();
    view.controls()->setSetting(shot);
    if (!waitFor(shown, before + 1)) return 1;
    QApplication::processEvents();
    if (!view.grab().save(screenshot)) return 1;
    std::printf("screenshot: %s\n", qPrintable(screenshot));
  }
  return 0;
}
