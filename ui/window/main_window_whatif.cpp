// MainWindow and the What-if routing view: opened from a run's captured layer (a dashboard's
// capture marker or What-if menu) or from any safetensors file (File > Open Routing Tensors…).
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>

#include "base/storage/worker_task.h"
#include "base/whatif/whatif_source.h"
#include "whatif/whatif_view.h"
#include "window/main_window.h"

namespace moe::ui {

WhatIfView* MainWindow::openWhatIf(const QString& tensors, const QString& prefix,
                                   const QString& title) {
  const QString path = QFileInfo(tensors).absoluteFilePath();
  for (int i = 0; i < tabs_->count(); ++i) {
    auto* open = qobject_cast<WhatIfView*>(tabs_->widget(i));
    if (open && open->source() && open->source()->tensors == path &&
        open->source()->prefix == prefix) {
      tabs_->setCurrentWidget(open);
      return open;
    }
  }
  WhatIfView::Options options;
  options.tensors = path;
  options.prefix = prefix;
  options.title = title;
  auto* view = new WhatIfView(options, tabs_);
  addClosableTab(view, tr("What-if: %1").arg(view->title()));
  return view;
}

WhatIfView* MainWindow::openCapture(const QString& run_dir, qint64 step, qint64 layer,
                                    const QString& tensors) {
  const QString title =
      tr("%1 · step %2 · layer %3").arg(QFileInfo(run_dir).fileName()).arg(step).arg(layer);
  return openWhatIf(tensors, QString(), title);
}

void MainWindow::chooseRoutingTensors() {
  QSettings settings;
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Open Routing Tensors"), settings.value("whatif/last_dir").toString(),
      tr("safetensors (*.safetensors);;All files (*)"));
  if (file.isEmpty()) return;
  settings.setValue("whatif/last_dir", QFileInfo(file).absolutePath());
  openRoutingTensors(file);
}

// The file's header is read off the GUI thread; a file with several MoE layers (a model's
// checkpoint: blocks.0.moe., blocks.1.moe., ...) asks which one.
void MainWindow::openRoutingTensors(const QString& tensors) {
  struct Found {
    QStringList prefixes;
    QString error;
  };
  runOnWorker(
      this,
      [tensors] {
        Found found;
        found.prefixes = routingLayerPrefixes(tensors, &found.error);
        return found;
      },
      [this, tensors](const Found& found) {
        if (found.prefixes.isEmpty()) {
          QMessageBox::warning(this, tr("No MoE layer to route"), found.error);
          return;
        }
        QString prefix = found.prefixes.front();
        if (found.prefixes.size() > 1) {
          bool ok = false;
          prefix = QInputDialog::getItem(
              this, tr("Which MoE layer?"),
              tr("%1 holds %2 MoE layers. Route the one whose names start with:")
                  .arg(QFileInfo(tensors).fileName())
                  .arg(found.prefixes.size()),
              found.prefixes, 0, false, &ok);
          if (!ok) return;
        }
        const QString name = QFileInfo(tensors).fileName();
        openWhatIf(tensors, prefix, prefix.isEmpty() ? name : name + " · " + prefix);
      });
}

}  // namespace moe::ui
