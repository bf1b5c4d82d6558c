// The files of a run directory as the app names them: protocol/run_layout.h's names under a
// directory, e.g. runFile(dir, run_layout::kMetrics).
#pragma once

#include <QDir>
#include <QString>

#include "protocol/run_layout.h"

namespace moe::ui {

namespace run_layout = protocol::run_layout;

inline QString runFile(const QString& run_dir, const char* name) {
  return QDir(run_dir).filePath(QLatin1String(name));
}

}  // namespace moe::ui
