// The Generate tab: text from a run's checkpoint or a Hugging Face folder with `moe-train
// generate`, each token coloured by its expert (ui/generate/).
#include <QTabBar>
#include <QTabWidget>

#include "base/runs/run_manager.h"
#include "base/runs/run_store.h"
#include "generate/generate_form.h"
#include "generate/generate_view.h"
#include "window/main_window.h"

namespace moe::ui {

namespace {

constexpr int kRecentModels = 20;

}  // namespace

// After the Profiler, and like it never closed: a generation and its settings live in the tab.
void MainWindow::buildGenerateTab() {
  generate_view_ = new GenerateView(this);
  const int index = tabs_->addTab(generate_view_, tr("Generate"));
  tabs_->tabBar()->setTabButton(index, QTabBar::RightSide, nullptr);
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int current) {
    if (tabs_->widget(current) == generate_view_) refreshGenerateModels();
  });
}

// The newest decoder runs of the store (only decoders generate), and the moe-train runs use.
void MainWindow::refreshGenerateModels() {
  generate_view_->setTrainProgram(runs_->trainProgram());
  if (!store_ || !store_->isOpen()) return;
  QList<QPair<QString, QString>> models;
  for (const RunRecord& run : store_->all()) {
    const auto& config = run.config;
    const bool decoder = config.contains("model") && config["model"].is_object() &&
                         config["model"].value("kind", "") == "decoder";
    if (!decoder) continue;
    models.append({tr("%1 · %2").arg(run.displayName(), run.id), run.run_dir});
    if (models.size() >= kRecentModels) break;
  }
  generate_view_->form()->setRecentModels(models);
}

GenerateView* MainWindow::showGenerate(const QString& model) {
  tabs_->setCurrentWidget(generate_view_);
  refreshGenerateModels();
  if (!model.isEmpty()) generate_view_->form()->setModel(model);
  return generate_view_;
}

}  // namespace moe::ui
