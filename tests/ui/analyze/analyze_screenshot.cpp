// Saves docs/screenshots/analyze.png: moe-studio's window with an Analyze view of a real
// `moe-train analyze` report (tests/ui/take_screenshots.sh makes one and calls this), rendered with
// QWidget::grab, so the picture is the app's own drawing.
// Usage: analyze_screenshot REPORT.json OUT.png
#include <QApplication>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

#include "analyze/analyze_view.h"
#include "window/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: analyze_screenshot REPORT.json OUT.png\n");
    return 2;
  }
  moe::ui::MainWindow window;
  window.resize(1366, 860);
  window.show();
  auto* view = window.openRoutingAnalysis(QString::fromLocal8Bit(argv[1]));
  QSignalSpy loaded(view, &moe::ui::AnalyzeView::loaded);
  if (!loaded.wait(30000)) {
    std::fprintf(stderr, "analyze_screenshot: %s\n", qPrintable(view->statusText()));
    return 1;
  }
  QTimer::singleShot(300, &app, &QApplication::quit);  // layout and paint settle
  app.exec();
  return window.grab().save(QString::fromLocal8Bit(argv[2])) ? 0 : 1;
}
