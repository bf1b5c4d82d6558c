#include "base/remote/remote_command.h"

namespace moe::ui {

namespace {

bool isSafeIdChar(QChar c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

}  // namespace

QString shellQuote(const QString& word) {
  QString quoted = word;
  quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
  return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString remoteScriptLine(const QString& script, const QString& name, const QStringList& args) {
  QStringList words{QStringLiteral("sh"), QStringLiteral("-c"), shellQuote(script),
                    shellQuote(name)};
  for (const QString& arg : args) words << shellQuote(arg);
  return words.join(QLatin1Char(' '));
}

QString remoteRunId(const QString& name, const QDateTime& when) {
  QString safe;
  for (const QChar c : name) safe += isSafeIdChar(c) ? c : QChar('_');
  safe = safe.left(64);
  while (safe.startsWith('.') || safe.startsWith('-')) safe[0] = '_';
  if (safe.isEmpty()) safe = QStringLiteral("run");
  return when.toString(QStringLiteral("yyyyMMdd-hhmmss")) + QLatin1Char('-') + safe;
}

QString runIdProblem(const QString& id) {
  if (id.isEmpty()) return QStringLiteral("the run name is empty");
  if (id == QLatin1String(".") || id == QLatin1String(".."))
    return QStringLiteral("'%1' is not a run name").arg(id);
  if (id.startsWith('-')) return QStringLiteral("a run name may not start with '-'");
  for (const QChar c : id) {
    if (!isSafeIdChar(c))
      return QStringLiteral("a run name may hold only letters, digits, '.', '_' and '-'");
  }
  return {};
}

bool hasControlCharacter(const QString& text) {
  for (const QChar c : text) {
    if (c.category() == QChar::Other_Control || c == QChar::LineSeparator ||
        c == QChar::ParagraphSeparator)
      return true;
  }
  return false;
}

QString remotePathProblem(const QString& path) {
  if (path.isEmpty()) return QStringLiteral("the path is empty");
  if (hasControlCharacter(path))
    return QStringLiteral("the path holds a control character (a newline?)");
  if (!path.startsWith('/') && path != QLatin1String("~") && !path.startsWith(QLatin1String("~/")))
    return QStringLiteral("'%1' is neither absolute nor in the home directory (~/...)").arg(path);
  return {};
}

}  // namespace moe::ui
