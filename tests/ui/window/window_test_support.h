#pragma once
// Shared by the window tests: a private data and settings home per test process (so the run
// store, the runs root and QSettings start empty and never touch the user's), and tiny configs.
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace moe::ui::test {

// Points XDG_DATA_HOME and XDG_CONFIG_HOME into a temporary directory for the process' life.
inline void useTemporaryHome() {
  static QTemporaryDir home;
  qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());
  qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
}

// A byte-level lm with two MoE layers of 4 experts that trains in well under a second a step.
inline QString tinyLmConfig(const QString& name, int steps, int experts = 4) {
  return QString(R"({"name": "%1",
      "model": {"kind": "lm", "dim": 32, "layers": 2, "heads": 2, "seq_len": 16},
      "moe": {"experts": %3, "hidden": 32},
      "train": {"steps": %2, "batch_size": 4, "threads": 1}})")
      .arg(name)
      .arg(steps)
      .arg(experts);
}

}  // namespace moe::ui::test
