// The one place where values become words of a remote shell command. Every command the app runs
// on another machine (over ssh, or through sh for a Slurm cluster on this machine) is a fixed
// script run as `sh -c SCRIPT NAME ARG...`: the script is a constant of remote_scripts.h, and the
// values (paths, names, programs) arrive as its positional parameters, each single-quoted here, so
// no value is ever read as shell syntax. Run names and remote paths are validated before use.
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace moe::ui {

// 'word', with every ' written as '\'' : the same word to any POSIX shell (newlines included).
QString shellQuote(const QString& word);

// `sh -c 'SCRIPT' NAME 'ARG'...`: the line a remote login shell runs; $0 is `name`, $1... `args`.
QString remoteScriptLine(const QString& script, const QString& name, const QStringList& args);

// A directory name for a run: <yyyyMMdd-hhmmss>-<name>, the name reduced to [A-Za-z0-9._-]
// (others become '_', at most 64 characters, never starting with '.' or '-'), as moe-train names
// a run it names itself.
QString remoteRunId(const QString& name, const QDateTime& when);

// Empty when `id` is one path component of safe characters ([A-Za-z0-9._-], not "." or "..", not
// starting with '-'); else what is wrong with it.
QString runIdProblem(const QString& id);

// Whether `text` holds a character that breaks a line or a word for a shell, ssh or sbatch: a
// control character (newline, NUL, ...) or a Unicode line or paragraph separator.
bool hasControlCharacter(const QString& text);

// Empty when `path` can name a remote file or directory: not empty, no newline, NUL or other
// control character, absolute or starting with "~/" (the remote home); else what is wrong.
QString remotePathProblem(const QString& path);

}  // namespace moe::ui
