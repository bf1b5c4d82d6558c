// Test helpers for the report tests: real moe-train runs into a chosen run directory, a strict
// RFC 4180 CSV reader (the exports' counterpart), and the non-white pixels of a rendered page.
#pragma once

#include <QFile>
#include <QImage>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace moe::test {

struct ProcessResult {
  int exit_code = -1;
  bool finished = false;
  QString output;  // stdout and stderr together
};

inline ProcessResult runProgram(
    const QString& program, const QStringList& arguments, int timeout_ms,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(env);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(program, arguments);
  ProcessResult result;
  result.finished = process.waitForFinished(timeout_ms);
  if (!result.finished) process.kill();
  process.waitForFinished(1000);
  result.output = QString::fromUtf8(process.readAll());
  result.exit_code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  return result;
}

// Rows of fields; quotes and line breaks inside quoted fields as RFC 4180 says. *ok false when a
// quote is unbalanced.
inline QList<QStringList> parseCsv(const QString& text, bool* ok) {
  QList<QStringList> rows;
  QStringList row;
  QString field;
  bool quoted = false, in_quotes = false;
  *ok = true;
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      if (!field.isEmpty()) *ok = false;  // a quote inside an unquoted field
      in_quotes = quoted = true;
    } else if (c == ',') {
      row << field;
      field.clear();
      quoted = false;
    } else if (c == '\n') {
      row << field;
      rows << row;
      row.clear();
      field.clear();
      quoted = false;
    } else if (c != '\r') {
      if (quoted) *ok = false;  // text after a closing quote
      field += c;
    }
  }
  if (in_quotes) *ok = false;
  if (!field.isEmpty() || !row.isEmpty()) {
    row << field;
    rows << row;
  }
  return rows;
}

inline QList<QStringList> readCsvFile(const QString& path, bool* ok) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    *ok = false;
    return {};
  }
  return parseCsv(QString::fromUtf8(file.readAll()), ok);
}

// Pixels darker than near-white: what a blank page lacks.
inline qint64 inkedPixels(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  qint64 inked = 0;
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    for (int x = 0; x < rgb.width(); ++x) {
      if (qGray(line[x]) < 235) ++inked;
    }
  }
  return inked;
}

}  // namespace moe::test
