// ui_feed_bench: the live dashboard's data path under a large run (issue 4's benchmark).
//
// A producer thread writes the telemetry of an L-layer x E-expert run (per step: a step line, L
// expert_load lines, a phases line) at a fixed rate, handing chunks to the GUI thread the way a
// QProcess's readyRead does; a TelemetryFeed parses them off the GUI thread into a RunSeries. On
// the GUI thread a 10 ms timer measures event-loop latency (how late it fires) and every
// changed() runs a simulated redraw: a snapshot of the last W steps of every series, the newest
// expert loads of all layers, and an experts x steps load matrix of layer 0 over the whole run.
//
//   ui_feed_bench [--steps 100000] [--layers 8] [--experts 64] [--rate 2000 | --rate 0 (max)]
//                 [--prefill STEPS] [--window 2000] [--bins 1000]
// --prefill puts that many steps straight into the series first (no JSON), so that a paced run
// can be measured against a full-size series without waiting for it to fill at 2,000 lines/s.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "dashboard/run_series.h"
#include "dashboard/telemetry_feed.h"

namespace protocol = moe::protocol;
using moe::ui::RunSeries;
using moe::ui::StepRange;
using moe::ui::TelemetryFeed;

namespace {

struct Options {
  long steps = 100000, layers = 8, experts = 64, rate = 2000, prefill = 0, window = 2000,
       bins = 1000;
};

// The events of one step, as a real MoE run would report them (counts around N*k/E).
std::vector<protocol::TelemetryEvent> step_events(const Options& o, long s) {
  std::vector<protocol::TelemetryEvent> out;
  protocol::StepEvent step;
  step.t = s * 0.05;
  step.step = s;
  step.loss = 5.0 / (1.0 + s * 1e-3);
  step.task_loss = step.loss * 0.99;
  step.aux_loss = 1.01;
  step.lr = 1e-3;
  step.grad_norm = 0.7;
  step.tokens = 16384;
  step.tokens_per_s = 327680;
  step.step_ms = 50;
  out.emplace_back(step);
  for (long l = 0; l < o.layers; ++l) {
    protocol::ExpertLoadEvent e;
    e.t = step.t;
    e.step = s;
    e.layer = l;
    e.capacity = 2 * 16384 / o.experts;
    for (long x = 0; x < o.experts; ++x) {
      const int64_t c = 512 + ((s * 131 + x * 977 + l * 31) % 400) - 200;
      e.counts.push_back(c);
      e.kept.push_back(std::min<int64_t>(c, e.capacity));
      e.importance.push_back(static_cast<double>(c) / (2.0 * 16384));
    }
    e.dropped_frac = 0.05;
    e.cv = 0.2;
    e.max_over_mean = 1.4;
    e.load_entropy = 0.97;
    e.router_entropy = 0.9;
    e.l_aux = 1.02;
    e.z_loss = 4.1;
    out.emplace_back(std::move(e));
  }
  protocol::PhasesEvent p;
  p.step = s;
  for (std::string_view name : protocol::kPhaseNames) p.ms[std::string(name)] = 3.0;
  out.emplace_back(std::move(p));
  return out;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

long current_rss_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

void report(const char* what, const std::vector<double>& ms) {
  std::printf("%-28s n=%-6zu p50 %7.3f  p99 %7.3f  max %7.3f ms\n", what, ms.size(),
              percentile(ms, 0.5), percentile(ms, 0.99),
              ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()));
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const long v = std::atol(argv[i + 1]);
    if (!std::strcmp(argv[i], "--steps"))
      o.steps = v;
    else if (!std::strcmp(argv[i], "--layers"))
      o.layers = v;
    else if (!std::strcmp(argv[i], "--experts"))
      o.experts = v;
    else if (!std::strcmp(argv[i], "--rate"))
      o.rate = v;
    else if (!std::strcmp(argv[i], "--prefill"))
      o.prefill = v;
    else if (!std::strcmp(argv[i], "--window"))
      o.window = v;
    else if (!std::strcmp(argv[i], "--bins"))
      o.bins = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  const long lines_per_step = o.layers + 2;
  std::printf("run: %ld steps x (%ld layers x %ld experts), %ld lines/step, rate %s, prefill %ld\n",
              o.steps, o.layers, o.experts, lines_per_step,
              o.rate > 0 ? (std::to_string(o.rate) + " lines/s").c_str() : "max", o.prefill);

  TelemetryFeed feed;
  std::shared_ptr<RunSeries> series = feed.series();
  protocol::RunStartEvent start;
  start.run_id = "bench";
  start.config = {{"train", {{"steps", o.steps}}}, {"telemetry", {{"every", 1}}}};
  series->apply(start);
  QElapsedTimer prefill_clock;
  prefill_clock.start();
  for (long s = 1; s <= o.prefill; ++s) {
    auto events = step_events(o, s);
    series->apply(events);
  }
  if (o.prefill > 0) {
    std::printf("prefill: %ld steps in %.1f s, RSS %.1f MB\n", o.prefill,
                prefill_clock.elapsed() / 1000.0, current_rss_kb() / 1024.0);
  }

  // Event-loop latency: how late a 10 ms timer fires.
  std::vector<double> lateness_ms, snapshot_ms, matrix_ms, delta_ms;
  QElapsedTimer tick_clock;
  QTimer ticker;
  ticker.setTimerType(Qt::PreciseTimer);
  ticker.setInterval(10);
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    if (tick_clock.isValid())
      lateness_ms.push_back(std::max(0.0, tick_clock.nsecsElapsed() / 1e6 - 10.0));
    tick_clock.restart();
  });
  ticker.start();

  // Simulated redraw on each coalesced changed().
  uint64_t mirror_version = series->version();
  size_t mirrored_rows = 0;
  QObject::connect(&feed, &TelemetryFeed::changed, [&] {
    QElapsedTimer t;
    t.start();
    const auto delta = series->changes_since(mirror_version);
    mirror_version = delta.version;
    mirrored_rows += delta.steps.size();
    delta_ms.push_back(t.nsecsElapsed() / 1e6);
    t.restart();
    const auto snap = series->snapshot(StepRange::last_rows(static_cast<size_t>(o.window)));
    const auto latest = series->latest_expert_loads();
    snapshot_ms.push_back(t.nsecsElapsed() / 1e6);
    t.restart();
    const auto matrix = series->load_matrix(0, StepRange::all(), static_cast<size_t>(o.bins));
    matrix_ms.push_back(t.nsecsElapsed() / 1e6);
    (void)snap;
    (void)latest;
    (void)matrix;
  });

  // The producer: paced chunks every 10 ms, handed to the GUI thread like readyRead.
  std::atomic<bool> produced{false};
  QElapsedTimer run_clock;
  run_clock.start();
  std::thread producer([&] {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    long generated = 0, s = o.prefill + 1;
    std::string chunk;
    auto append_step = [&] {
      for (const auto& e : step_events(o, s)) {
        chunk += protocol::event_line(protocol::to_json(e));
        chunk += '\n';
      }
      generated += lines_per_step;
      ++s;
    };
    auto post = [&] {
      QByteArray bytes = QByteArray::fromStdString(chunk);
      chunk.clear();
      QMetaObject::invokeMethod(&feed, [&feed, bytes] { feed.feed(bytes); });
    };
    while (s <= o.steps) {
      if (o.rate > 0) {  // every 10 ms, the lines due by now
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
        const long due = static_cast<long>(us.count() * o.rate / 1000000);
        while (s <= o.steps && generated < due) append_step();
        if (!chunk.empty()) post();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      } else {  // as fast as the parser takes it, in 32 KB chunks
        while (s <= o.steps && chunk.size() < 32768) append_step();
        while (feed.pendingBytes() > (8 << 20)) {
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        post();
      }
    }
    QMetaObject::invokeMethod(&feed, [&feed] { feed.finish(); });
    produced = true;
  });

  QTimer progress;
  progress.setInterval(10000);
  QObject::connect(&progress, &QTimer::timeout, [&] {
    std::printf("  t=%5.0f s  steps %zu  RSS %.0f MB\n", run_clock.elapsed() / 1000.0,
                series->stats().step_rows, current_rss_kb() / 1024.0);
    std::fflush(stdout);
  });
  progress.start();
  QObject::connect(&feed, &TelemetryFeed::finished, &app, &QCoreApplication::quit);
  app.exec();
  producer.join();

  const double seconds = run_clock.elapsed() / 1000.0;
  const TelemetryFeed::Stats fs = feed.stats();
  const moe::ui::RunSeriesStats ss = series->stats();
  std::printf("fed %lld lines (%.1f MB) in %.1f s: %.0f lines/s, %lld malformed\n",
              static_cast<long long>(fs.lines), fs.bytes / 1e6, seconds, fs.lines / seconds,
              static_cast<long long>(fs.malformed));
  report("event-loop lateness (10 ms)", lateness_ms);
  report("redraw: changes_since", delta_ms);
  report("redraw: snapshot last W", snapshot_ms);
  report("redraw: load matrix", matrix_ms);
  std::printf("series: %zu steps, %zu layer rows, %.1f MB held, %.0f bytes/step (%s counts)\n",
              ss.step_rows, ss.layer_rows, ss.bytes / 1e6,
              static_cast<double>(ss.bytes) / std::max<size_t>(1, ss.step_rows),
              ss.wide_counts ? "32-bit" : "16-bit");
  std::printf("RSS now %.1f MB, peak %.1f MB; mirrored %zu rows through changes_since\n",
              current_rss_kb() / 1024.0, peak_rss_kb() / 1024.0, mirrored_rows);
  // After the peak is taken: what a reader that asks for everything at once costs.
  QElapsedTimer full;
  full.start();
  const moe::ui::RunSnapshot everything = series->snapshot();
  std::printf("one full snapshot (every row of every series): %.1f ms\n",
              full.nsecsElapsed() / 1e6);
  return everything.steps.size() == ss.step_rows ? 0 : 1;
}
