// ui_feed_bench: the live dashboard under a large run (issue 4's benchmark).
//
// A producer thread writes the telemetry of an L-layer x E-expert run (per step: a step line, L
// expert_load lines, a phases line) at a fixed rate, handing chunks to the GUI thread the way a
// QProcess's readyRead does; a TelemetryFeed parses them off the GUI thread into a RunSeries,
// and a real RunDashboard (shown at 1366x860) draws it. The run is cut in four by steps, one page
// in view in each quarter (Training, Expert load, Imbalance, Phases). Per page it measures:
//   - event-loop latency: how late a 10 ms timer fires (p50 / p99 / max);
//   - RunDashboard::refresh(), called and timed on the bench's own 40 ms timer (the dashboard's
//     own redraw timer is stopped, so that every redraw is one timed here);
//   - QCustomPlot::replotTime() of each (queued) replot, of plots in view and of hidden ones;
//   - the share of the time the GUI thread was busy handling events.
// Then each page against the complete series: the switch to it, its per-frame data work (line
// plots: refreshView(), which fits the axes to all rows; Expert load: the heatmaps recomputed;
// Phases: phases() + bin_phases) and a replot(rpImmediateRefresh) of each plot in view. Last,
// RunSeries::stats().bytes and peak RSS (getrusage).
//
//   QT_QPA_PLATFORM=offscreen ui_feed_bench [--steps 100000] [--layers 8] [--experts 64]
//                                           [--rate 2000 | --rate 0 (max)] [--prefill STEPS]
// --prefill puts that many steps straight into the series first (no JSON), so that a paced run
// can be measured against a full-size series without waiting for it to fill at 2,000 lines/s;
// the dashboard's first draw of them is reported apart.
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "base/plot_data/phase_bins.h"
#include "base/run/run.h"  // run_dashboard.h's QPointer<Run> needs the whole class
#include "base/telemetry/telemetry_feed.h"
#include "dashboard/load_page.h"
#include "dashboard/run_dashboard.h"
#include "widgets/expert_load_heatmap.h"
#include "widgets/phase_breakdown_plot.h"
#include "widgets/time_series_plot.h"

namespace protocol = moe::protocol;
using namespace moe::ui;

namespace {

constexpr int kPages = 4;

struct Options {
  long steps = 100000, layers = 8, experts = 64, rate = 2000, prefill = 0;
};

// The events of one step, as a real MoE run would report them (counts around N*k/E).
std::vector<protocol::TelemetryEvent> stepEvents(const Options& o, long s) {
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

bool parseOptions(int argc, char** argv, Options* o) {
  const std::map<std::string, long*> flags = {{"--steps", &o->steps},
                                              {"--layers", &o->layers},
                                              {"--experts", &o->experts},
                                              {"--rate", &o->rate},
                                              {"--prefill", &o->prefill}};
  for (int i = 1; i < argc; i += 2) {
    const auto flag = flags.find(argv[i]);
    if (flag == flags.end() || i + 1 >= argc) {
      std::fprintf(stderr,
                   "usage: QT_QPA_PLATFORM=offscreen ui_feed_bench [--steps N] [--layers L] "
                   "[--experts E] [--rate LINES_PER_S | 0] [--prefill N]\n");
      return false;
    }
    *flag->second = std::atol(argv[i + 1]);
  }
  o->prefill = std::clamp(o->prefill, 0L, o->steps);
  return true;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}
double maxOf(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}
double meanOf(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}
double msSince(const QElapsedTimer& clock) {
  return clock.nsecsElapsed() / 1e6;
}

double peakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

// What the GUI thread did while one page was in view.
struct PageStats {
  std::vector<double> lateness, refresh, replot_shown, replot_hidden;
  double busy_ms = 0, shown_ms = 0;
};

// While `page` is set, times every event the GUI thread handles into it (the outermost ones
// only: nested sends are inside them).
class BenchApp : public QApplication {
 public:
  using QApplication::QApplication;
  PageStats* page = nullptr;

  bool notify(QObject* receiver, QEvent* event) override {
    if (QThread::currentThread() != thread()) return QApplication::notify(receiver, event);
    if (!page || depth_ > 0) return QApplication::notify(receiver, event);
    QElapsedTimer clock;
    clock.start();
    ++depth_;
    const bool done = QApplication::notify(receiver, event);
    --depth_;
    page->busy_ms += msSince(clock);
    return done;
  }

 private:
  int depth_ = 0;
};

// Every plot's own replot time, into the page in view.
void watchReplots(RunDashboard& dashboard, BenchApp* app) {
  for (QCustomPlot* plot : dashboard.findChildren<QCustomPlot*>()) {
    QObject::connect(plot, &QCustomPlot::afterReplot, plot, [plot, app] {
      if (!app->page) return;
      (plot->isVisible() ? app->page->replot_shown : app->page->replot_hidden)
          .push_back(plot->replotTime(false));
    });
  }
}

// The producer: paced chunks every 10 ms (or as fast as the parser takes them, in 32 KB
// chunks), handed to the GUI thread like readyRead; then finish().
std::thread startProducer(const Options& o, TelemetryFeed& feed) {
  return std::thread([&o, &feed] {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    long generated = 0, s = o.prefill + 1;
    std::string chunk;
    auto append_step = [&] {
      for (const auto& e : stepEvents(o, s)) {
        chunk += protocol::event_line(protocol::to_json(e));
        chunk += '\n';
      }
      generated += o.layers + 2;
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
      } else {
        while (s <= o.steps && chunk.size() < 32768) append_step();
        while (feed.pendingBytes() > (8 << 20))
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        post();
      }
    }
    QMetaObject::invokeMethod(&feed, [&feed] { feed.finish(); });
  });
}

// Runs the event loop until nothing is queued (the replots a refresh queued, then their paint).
void drainEvents() {
  for (int i = 0; i < 4; ++i) QCoreApplication::processEvents();
}

// Feeds the rest of the run live; the bench's timers measure latency and redraw, with the page
// in view following the run's progress (a quarter each). Returns the seconds it took.
double runLive(const Options& o, BenchApp& app, RunDashboard& dashboard, TelemetryFeed& feed,
               std::vector<PageStats>& pages) {
  const std::shared_ptr<RunSeries> series = feed.series();
  int shown = 0;
  app.page = &pages[shown];
  dashboard.pages()->setCurrentIndex(shown);
  QElapsedTimer shown_clock, tick_clock;
  shown_clock.start();

  QTimer ticker;  // event-loop latency: how late a 10 ms timer fires
  ticker.setTimerType(Qt::PreciseTimer);
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    if (tick_clock.isValid()) app.page->lateness.push_back(std::max(0.0, msSince(tick_clock) - 10));
    tick_clock.restart();
  });

  uint64_t drawn = series->version();  // the redraw, every 40 ms as the dashboard's own
  const double span = static_cast<double>(std::max(1L, o.steps - o.prefill));
  QTimer redraw;
  redraw.setTimerType(Qt::PreciseTimer);
  QObject::connect(&redraw, &QTimer::timeout, [&] {
    const double done = (static_cast<double>(series->stats().step_rows) - o.prefill) / span;
    const int want = std::clamp(static_cast<int>(done * kPages), 0, kPages - 1);
    if (want != shown) {
      app.page->shown_ms = msSince(shown_clock);
      shown_clock.restart();
      app.page = &pages[shown = want];
      dashboard.pages()->setCurrentIndex(shown);
    }
    if (series->version() == drawn) return;
    drawn = series->version();
    QElapsedTimer clock;
    clock.start();
    dashboard.refresh();
    app.page->refresh.push_back(msSince(clock));
  });

  QEventLoop loop;  // not app.exec(): QApplication::quit() would close the dashboard's window
  QObject::connect(&feed, &TelemetryFeed::finished, &loop, &QEventLoop::quit);
  QElapsedTimer clock;
  clock.start();
  ticker.start(10);
  redraw.start(40);
  std::thread producer = startProducer(o, feed);
  loop.exec();
  producer.join();
  const double seconds = clock.elapsed() / 1e3;
  ticker.stop();
  redraw.stop();
  dashboard.refresh();  // the last rows
  drainEvents();
  app.page->shown_ms = msSince(shown_clock);
  app.page = nullptr;
  return seconds;
}

void report(const char* what, const std::vector<double>& ms) {
  std::printf("  %-27s n=%-5zu p50 %6.2f  p99 %7.2f  max %7.2f ms\n", what, ms.size(),
              percentile(ms, 0.5), percentile(ms, 0.99), maxOf(ms));
}

void reportPage(const QString& name, const PageStats& p) {
  std::printf("%s: %.1f s in view, GUI thread busy %.0f%%\n", qPrintable(name), p.shown_ms / 1000,
              100 * p.busy_ms / std::max(1.0, p.shown_ms));
  report("event-loop lateness (10 ms)", p.lateness);
  report("refresh()", p.refresh);
  std::printf("  replot: in view n=%zu mean %.2f max %.2f ms; hidden n=%zu mean %.2f max %.2f ms\n",
              p.replot_shown.size(), meanOf(p.replot_shown), maxOf(p.replot_shown),
              p.replot_hidden.size(), meanOf(p.replot_hidden), maxOf(p.replot_hidden));
}

// Each page against the complete series: the switch, its per-frame data work (see the header
// comment) and each plot in view replotted at once.
void measureFullPages(RunDashboard& dashboard, const RunSeries& series) {
  std::printf("each page against the full series (ms):\n");
  for (int i = 0; i < kPages; ++i) {
    QWidget* page = dashboard.pages()->widget(i);
    QElapsedTimer clock;
    clock.start();
    dashboard.pages()->setCurrentIndex(i);
    drainEvents();
    const double switch_ms = msSince(clock);
    clock.restart();
    if (page == dashboard.load()) {
      dashboard.load()->heatmap()->setStepRange(StepRange::all());  // stale: recomputed
      dashboard.load()->updateFrom(series);
    } else if (page == dashboard.phases()) {
      (void)binPhases(series.phases(), PhaseBreakdownPlot::kMaxBins);
    } else {
      for (TimeSeriesPlot* plot : page->findChildren<TimeSeriesPlot*>()) plot->refreshView();
    }
    const double update_ms = msSince(clock);
    std::vector<double> replots;
    for (QCustomPlot* plot : dashboard.findChildren<QCustomPlot*>()) {
      if (!plot->isVisible()) continue;
      clock.restart();
      plot->replot(QCustomPlot::rpImmediateRefresh);
      replots.push_back(msSince(clock));
    }
    drainEvents();
    std::printf(
        "  %-12s switch %6.1f  data %6.1f  %zu plots: replot mean %5.2f max %5.2f sum %5.1f\n",
        qPrintable(dashboard.pages()->tabText(i)), switch_ms, update_ms, replots.size(),
        meanOf(replots), maxOf(replots), std::accumulate(replots.begin(), replots.end(), 0.0));
  }
}

}  // namespace

int main(int argc, char** argv) {
  BenchApp app(argc, argv);
  Options o;
  if (!parseOptions(argc, argv, &o)) return 2;
  // The dashboard keeps its splitter and page in QSettings: a throw-away store, not the user's.
  QTemporaryDir settings_dir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
  std::printf("run: %ld steps x (%ld layers x %ld experts), %ld lines/step, rate %s, prefill %ld\n",
              o.steps, o.layers, o.experts, o.layers + 2,
              o.rate > 0 ? (std::to_string(o.rate) + " lines/s").c_str() : "max", o.prefill);

  TelemetryFeed feed;
  const std::shared_ptr<RunSeries> series = feed.series();
  protocol::RunStartEvent start;
  start.run_id = "bench";
  start.config = {{"train", {{"steps", o.steps}}}, {"telemetry", {{"every", 1}}}};
  series->apply(start);
  QElapsedTimer clock;
  clock.start();
  for (long s = 1; s <= o.prefill; ++s) {  // --prefill: straight into the series
    auto events = stepEvents(o, s);
    series->apply(events);
  }
  std::printf("prefill: %.1f s, peak RSS %.0f MB\n", clock.elapsed() / 1e3, peakRssMb());
  RunDashboard dashboard(series, nullptr, QStringLiteral("bench"));
  dashboard.setAutoRefresh(false);  // every redraw is one the bench times
  dashboard.resize(1366, 860);
  dashboard.show();
  watchReplots(dashboard, &app);
  drainEvents();
  clock.restart();
  dashboard.refresh();  // all the prefilled steps at once, as when a dashboard opens on a run
  const double refresh_ms = msSince(clock);
  drainEvents();
  std::printf("first draw: refresh %.1f ms, then %.1f ms to replot and paint; peak RSS %.0f MB\n",
              refresh_ms, msSince(clock) - refresh_ms, peakRssMb());
  std::vector<PageStats> pages(kPages);
  const double seconds = runLive(o, app, dashboard, feed, pages);

  const TelemetryFeed::Stats fs = feed.stats();
  std::printf(
      "fed %lld lines (%.1f MB) in %.1f s: %.0f lines/s, %lld malformed; peak RSS %.0f MB\n",
      static_cast<long long>(fs.lines), fs.bytes / 1e6, seconds, fs.lines / seconds,
      static_cast<long long>(fs.malformed), peakRssMb());
  for (int i = 0; i < kPages; ++i) reportPage(dashboard.pages()->tabText(i), pages[i]);
  measureFullPages(dashboard, *series);
  const RunSeriesStats ss = series->stats();
  std::printf("series: %zu steps, %zu layer rows, %.1f MB held, %.0f bytes/step (%s counts)\n",
              ss.step_rows, ss.layer_rows, ss.bytes / 1e6,
              static_cast<double>(ss.bytes) / std::max<size_t>(1, ss.step_rows),
              ss.wide_counts ? "32-bit" : "16-bit");
  std::printf("peak RSS %.0f MB\n", peakRssMb());
  return ss.step_rows == static_cast<size_t>(o.steps) && fs.malformed == 0 ? 0 : 1;
}
