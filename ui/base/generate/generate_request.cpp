#include "base/generate/generate_request.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>
#include <QRegularExpression>

namespace moe::ui {

int GenerateRequest::promptCount() const {
  return usesTokenIds() ? static_cast<int>(prompt_tokens.size()) : static_cast<int>(prompts.size());
}

QStringList GenerateRequest::arguments(const QString& prompt_tokens_file) const {
  QStringList args{QStringLiteral("generate"), QStringLiteral("--model"), model,
                   QStringLiteral("--telemetry"), QStringLiteral("-")};
  if (usesTokenIds()) {
    args << QStringLiteral("--prompt-tokens") << prompt_tokens_file;
  } else {
    for (const QString& prompt : prompts) args << QStringLiteral("--prompt") << prompt;
  }
  const SamplingSettings& s = sampling;
  args << QStringLiteral("--max-new-tokens") << QString::number(s.max_new_tokens);
  if (s.greedy) {
    args << QStringLiteral("--greedy");
  } else {
    args << QStringLiteral("--temperature") << QString::number(s.temperature, 'g', 10);
    if (s.top_k > 0) args << QStringLiteral("--top-k") << QString::number(s.top_k);
    if (s.top_p < 1.0) args << QStringLiteral("--top-p") << QString::number(s.top_p, 'g', 10);
    if (s.min_p > 0.0) args << QStringLiteral("--min-p") << QString::number(s.min_p, 'g', 10);
    args << QStringLiteral("--seed") << QString::number(s.seed);
  }
  if (!s.stop.isEmpty()) args << QStringLiteral("--stop") << s.stop;
  if (s.batch_size > 1) args << QStringLiteral("--batch-size") << QString::number(s.batch_size);
  return args;
}

QByteArray GenerateRequest::promptTokensJson() const {
  QJsonArray prompts_json;
  for (const auto& ids : prompt_tokens) {
    QJsonArray row;
    for (int64_t id : ids) row.append(static_cast<qint64>(id));
    prompts_json.append(row);
  }
  return QJsonDocument(prompts_json).toJson(QJsonDocument::Compact);
}

std::optional<std::vector<std::vector<int64_t>>> parsePromptIds(const QString& text,
                                                                QString* error) {
  static const QRegularExpression kSeparators(QStringLiteral("[\\s,\\[\\]]+"));
  std::vector<std::vector<int64_t>> prompts;
  const QStringList lines = text.split(QLatin1Char('\n'));
  for (qsizetype n = 0; n < lines.size(); ++n) {
    const QStringList words = lines[n].split(kSeparators, Qt::SkipEmptyParts);
    if (words.isEmpty()) continue;
    std::vector<int64_t> ids;
    for (const QString& word : words) {
      bool ok = false;
      const qlonglong id = word.toLongLong(&ok);
      if (!ok || id < 0) {
        if (error) {
          *error = QObject::tr("line %1: \"%2\" is not a token id (ids are whole numbers from 0)")
                       .arg(n + 1)
                       .arg(word);
        }
        return std::nullopt;
      }
      ids.push_back(id);
    }
    prompts.push_back(std::move(ids));
  }
  if (prompts.empty()) {
    if (error) *error = QObject::tr("no prompt: type token ids, one prompt a line");
    return std::nullopt;
  }
  return prompts;
}

QStringList splitPrompts(const QString& text) {
  static const QRegularExpression kSeparator(QStringLiteral("\\n[ \\t]*---[ \\t]*(\\n|$)"));
  QStringList prompts;
  for (const QString& part : (QLatin1Char('\n') + text).split(kSeparator)) {
    // The newline added in front lets a first line of "---" separate too; it is no prompt text.
    const QString prompt = part.startsWith(QLatin1Char('\n')) ? part.mid(1) : part;
    if (!prompt.trimmed().isEmpty()) prompts << prompt;
  }
  return prompts;
}

}  // namespace moe::ui
