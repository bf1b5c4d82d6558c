// The file work of RemoteFetch, run on a worker thread: copying a directory tree on this machine
// (a Slurm cluster whose runs live here), and moving a fetched copy into the run's local
// directory. Synchronous; every failure names the file.
#pragma once

#include <QString>
#include <QStringList>

namespace moe::ui::fetch_files {

// Copies the tree `from` into `to` (created; files and subdirectories, hidden ones too). Empty on
// success, else what failed.
QString copyTree(const QString& from, const QString& to);

// Moves every entry of `from` into `into` (created when missing), replacing an entry of the same
// name, except the names in `keep`, whose entries in `into` are left as they are. Empty on
// success, else what failed.
QString moveInto(const QString& from, const QString& into, const QStringList& keep);

// The one subdirectory of `dir` (what the fetch's tar unpacked); empty with *error when there is
// not exactly one.
QString onlySubdirectory(const QString& dir, QString* error);

}  // namespace moe::ui::fetch_files
