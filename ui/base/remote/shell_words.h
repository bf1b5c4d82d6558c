// Words of shell lines that people read: a command line to copy, a batch script to check before
// it is submitted. A word is quoted only when a POSIX shell would otherwise read it differently,
// so ordinary paths and names read as typed.
#pragma once

#include <QString>
#include <QStringList>

namespace moe::ui {

// `word` as is when it is not empty and made of characters no shell treats specially in an
// argument ([A-Za-z0-9_./:=@%+,-]); else shellQuote(word).
QString shellWord(const QString& word);

// The words joined by spaces, each through shellWord.
QString shellLine(const QStringList& words);

// A program or path on the remote side: a leading "~/" becomes "$HOME"/ so that the shell still
// finds the home directory once the rest is quoted.
QString remoteShellPath(const QString& path);

}  // namespace moe::ui
