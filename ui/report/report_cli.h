// The export commands of moe-studio and moe-report, run without a window (docs/REPORTS.md, "From
// the command line"):
//   moe-studio --export-report RUN_DIR OUT.html|OUT.pdf
//   moe-studio --export-comparison OUT.html|OUT.pdf RUN_DIR RUN_DIR...
//   moe-studio --export-csv RUN_DIR OUT_DIR
//   moe-studio --export-config RUN_DIR OUT.json
// Exit status 0 on success; 2 for bad input (a missing or malformed run directory, an unknown
// suffix, wrong arguments), with "<program>: ..." on stderr (the application's name); 1 when the
// output cannot be written.
#pragma once

#include <QStringList>

namespace moe::ui {

// Whether the command line (argv without the program) asks for an export: the first argument is
// one of the options above.
bool isExportCommand(const QStringList& arguments);

// Runs it; needs a QGuiApplication (fonts for the charts), never shows a window. Returns the exit
// status.
int runExportCommand(const QStringList& arguments);

}  // namespace moe::ui
