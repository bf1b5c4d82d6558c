// "Export Command Lines": every way to start the experiment by hand (command_exports.h), each in
// a read-only box with a Copy button, and the sbatch script saved to a file of the user's choice.
#pragma once

#include <QDialog>

#include "base/remote/target.h"
#include "protocol/run_config.h"

class QPlainTextEdit;

namespace moe::ui {

class CommandExportDialog : public QDialog {
  Q_OBJECT

 public:
  // `config_file`: the path the commands name (the saved experiment, or a stand-in name);
  // `init_from`: the weights its runs start from (run --init-from), empty for none.
  CommandExportDialog(const QString& config_file, const protocol::RunConfig& config,
                      const Target& slurm_target, QWidget* parent = nullptr,
                      const QString& init_from = {});

  // The sbatch script as shown.
  QString script() const;
  // Writes the script to `path` (executable by its owner); false with the reason in `error`.
  bool saveScript(const QString& path, QString* error) const;

 private:
  void chooseScriptFile();

  QPlainTextEdit* script_box_ = nullptr;
  QString script_file_name_;  // the file dialog's suggestion
};

}  // namespace moe::ui
