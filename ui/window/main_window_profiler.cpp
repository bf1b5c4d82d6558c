// The Profiler tab: sweeps of `moe-train bench` with their history (ui/profiler/).
#include <QTabBar>
#include <QTabWidget>

#include "base/profiler/sweep_store.h"
#include "profiler/profiler_view.h"
#include "window/main_window.h"

namespace moe::ui {

// After the Runs tab, and like it never closed: the history lives in the tab.
void MainWindow::buildProfilerTab() {
  profiler_view_ = new ProfilerView(SweepStore::defaultPath(), QString(), this);
  const int index = tabs_->addTab(profiler_view_, tr("Profiler"));
  tabs_->tabBar()->setTabButton(index, QTabBar::RightSide, nullptr);
}

}  // namespace moe::ui
