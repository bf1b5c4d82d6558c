#include "base/remote/shell_words.h"

#include "base/remote/remote_command.h"

namespace moe::ui {

namespace {

bool isPlainCharacter(QChar c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return QStringLiteral("_./:=@%+,-").contains(c);
}

}  // namespace

QString shellWord(const QString& word) {
  bool plain = !word.isEmpty();
  for (const QChar c : word) plain = plain && isPlainCharacter(c);
  return plain ? word : shellQuote(word);
}

QString shellLine(const QStringList& words) {
  QStringList quoted;
  for (const QString& word : words) quoted << shellWord(word);
  return quoted.join(QLatin1Char(' '));
}

QString remoteShellPath(const QString& path) {
  const QString home = QStringLiteral("~/");
  if (!path.startsWith(home) || path.size() == home.size()) return shellWord(path);
  return QStringLiteral("\"$HOME\"/") + shellWord(path.mid(home.size()));
}

}  // namespace moe::ui
