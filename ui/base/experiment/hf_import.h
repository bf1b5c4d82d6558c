// HfImport: File ▸ Import Hugging Face Model… without the window: `moe-train import-hf DIR
// --config-out FILE` in a QProcess (docs/MODELS.md, "Commands"), then the RunConfig it wrote read
// on a worker, so the GUI thread never waits for the engine or a file. One import at a time.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

#include <nlohmann/json.hpp>

namespace moe::ui {

struct HfImportResult {
  bool ok = false;
  QString model_dir;  // the folder imported: a run of its config starts from it (--init-from)
  // import-hf's first line: "import-hf: DIR: qwen2_moe, 3 layers, dim 128, 6 experts top-2,
  // 1.23M parameters (0.51M active per token)"; on failure, moe-train's message, which names the
  // key or file it refuses ("moe-train: DIR/config.json: ...").
  QString summary;
  int exit_code = -1;     // 2: the folder or a key the engine cannot honour
  nlohmann::json config;  // the RunConfig it wrote (ok only)
};

class HfImport : public QObject {
  Q_OBJECT

 public:
  // `program`: the moe-train to run (the window's is defaultTrainProgram()).
  explicit HfImport(QString program, QObject* parent = nullptr);
  ~HfImport() override;

  // Starts importing `model_dir`; false (nothing started) while another import runs.
  bool start(const QString& model_dir);
  bool isRunning() const { return process_ != nullptr; }

 signals:
  void finished(const moe::ui::HfImportResult& result);

 private:
  void onFinished(int exit_code, QProcess::ExitStatus status);
  void fail(const QString& message, int exit_code);

  QString program_;
  QString model_dir_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> scratch_;  // where --config-out goes
};

}  // namespace moe::ui
