#include "base/experiment/experiment_document.h"

#include <algorithm>
#include <stdexcept>

#include <QFile>
#include <QFileInfo>

#include "base/experiment/local_target.h"
#include "base/storage/whole_file.h"

namespace moe::ui {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// A config is a few KB; a bigger file is the wrong file (protocol reads at most 16 MiB too).
constexpr qint64 kMaxConfigFileBytes = 16 << 20;

// `doc` laid out like `order` (the resolved config in documented key order): keys in that order,
// the user's value wherever doc has one (even an ill-typed one, so the form never silently drops
// it), the default elsewhere, and keys doc has that the config does not know at the end of their
// object.
ordered_json mergeInOrder(const ordered_json& order, const json& doc) {
  if (!doc.is_object() || !order.is_object()) return ordered_json(doc);
  ordered_json out = ordered_json::object();
  for (const auto& [key, value] : order.items()) {
    auto it = doc.find(key);
    if (it == doc.end()) {
      out[key] = value;
    } else if (value.is_object() && it->is_object()) {
      out[key] = mergeInOrder(value, *it);
    } else {
      out[key] = ordered_json(*it);
    }
  }
  for (const auto& [key, value] : doc.items()) {
    if (!order.contains(key)) out[key] = ordered_json(value);
  }
  return out;
}

QString dump(const ordered_json& j) {
  // replace: invalid UTF-8 in a name or path must not throw half-way through a redraw.
  return QString::fromStdString(j.dump(2, ' ', false, ordered_json::error_handler_t::replace));
}

// "/a~1b/c" -> {"a/b", "c"} (RFC 6901).
std::vector<std::string> pointerTokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  size_t start = 1;
  while (start <= pointer.size()) {
    size_t end = pointer.find('/', start);
    if (end == std::string::npos) end = pointer.size();
    std::string token = pointer.substr(start, end - start);
    for (size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
      if (i + 1 < token.size()) token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
    }
    tokens.push_back(std::move(token));
    start = end + 1;
  }
  return tokens;
}

JsonSyntaxError makeSyntaxError(const QString& text, const json::parse_error& e) {
  const QByteArray utf8 = text.toUtf8();
  // e.byte is the 1-based index of the last byte read: the error is at or just before it.
  const qsizetype offset =
      std::min<qsizetype>(e.byte == 0 ? 0 : qsizetype(e.byte) - 1, utf8.size());
  const QString before = QString::fromUtf8(utf8.constData(), offset);
  JsonSyntaxError out;
  out.line = int(before.count(QLatin1Char('\n'))) + 1;
  out.column = int(before.size() - (before.lastIndexOf(QLatin1Char('\n')) + 1)) + 1;
  out.position = int(before.size());
  // what() is "[json.exception.parse_error.101] parse error at line L, column C: <why>"; the
  // position is ours (in characters, not bytes), the reason is nlohmann's.
  std::string why = e.what();
  const size_t colon = why.find(": ");
  out.message = colon == std::string::npos ? why : why.substr(colon + 2);
  return out;
}

}  // namespace

ExperimentDocument::ExperimentDocument(QObject* parent) : QObject(parent) {
  recheck();
  text_ = canonicalText();
}

QString ExperimentDocument::canonicalText() const {
  return dump(mergeInOrder(protocol::to_ordered_json(config_), json_));
}

void ExperimentDocument::setText(const QString& text) {
  if (text == text_) return;
  applyText(text, /*modified=*/true);
}

void ExperimentDocument::applyText(const QString& text, bool modified) {
  text_ = text;
  parseText();
  setModified(modified);
  emit textChanged();
  emit contentChanged();
}

void ExperimentDocument::parseText() {
  try {
    json_ = nlohmann::json::parse(text_.toStdString());
    syntax_error_.reset();
    recheck();
  } catch (const nlohmann::json::parse_error& e) {
    syntax_error_ = makeSyntaxError(text_, e);
  }
}

void ExperimentDocument::recheck() {
  problems_ = protocol::check(json_, &config_, options_);
  // The experiment runs here (LocalRun): what this machine cannot run is a problem too.
  std::vector<protocol::ConfigProblem> local = localTargetProblems(config_);
  if (!local.empty()) {
    problems_.insert(problems_.end(), local.begin(), local.end());
    protocol::sort_by_key_order(problems_);
  }
  parse_problems_.clear();
  protocol::parse_config(json_, &parse_problems_);
}

void ExperimentDocument::setValue(const std::string& pointer, const nlohmann::json& value) {
  if (syntax_error_) return;
  nlohmann::json* node = &json_;
  for (const std::string& token : pointerTokens(pointer)) {
    if (!node->is_object())
      *node = nlohmann::json::object();  // a form edit replaces an ill-typed section
    node = &(*node)[token];
  }
  if (*node == value) return;
  *node = value;
  recheck();
  text_ = canonicalText();
  setModified(true);
  emit textChanged();
  emit contentChanged();
}

void ExperimentDocument::reset(const nlohmann::json& doc) {
  json_ = doc;
  syntax_error_.reset();
  recheck();
  text_ = canonicalText();
  file_path_.clear();
  template_name_.clear();
  init_from_.clear();
  setModified(false);
  emit textChanged();
  emit contentChanged();
  emit fileChanged();
}

void ExperimentDocument::resetImported(const nlohmann::json& json, const QString& model_dir) {
  reset(json);
  init_from_ = model_dir;
  setModified(true);  // it exists in no file yet: closing asks to save it
  emit fileChanged();
}

void ExperimentDocument::setValidateOptions(const protocol::ValidateOptions& options) {
  options_ = options;
  if (syntax_error_) return;
  recheck();
  emit contentChanged();
}

bool ExperimentDocument::open(const QString& path, QString* error, bool as_template) {
  QFile file(path);
  if (QFileInfo(path).isDir()) {
    if (error) *error = tr("%1 is a folder, not a config file").arg(path);
    return false;
  }
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = tr("Cannot open %1: %2").arg(path, file.errorString());
    return false;
  }
  if (file.size() > kMaxConfigFileBytes) {
    if (error) *error = tr("%1 is too large for a config (%2 bytes)").arg(path).arg(file.size());
    return false;
  }
  const QString raw = QString::fromUtf8(file.readAll());
  text_ = raw;
  parseText();
  if (!syntax_error_) text_ = canonicalText();  // every key visible, in documented key order
  file_path_ = as_template ? QString() : QFileInfo(path).absoluteFilePath();
  template_name_ = as_template ? QFileInfo(path).completeBaseName() : QString();
  init_from_.clear();
  setModified(false);
  emit textChanged();
  emit contentChanged();
  emit fileChanged();
  return true;
}

bool ExperimentDocument::save(const QString& path, QString* error) {
  if (syntax_error_) {
    if (error) {
      *error = tr("The JSON has a syntax error at line %1, column %2; fix it before saving.")
                   .arg(syntax_error_->line)
                   .arg(syntax_error_->column);
    }
    return false;
  }
  QString written;
  if (parse_problems_.empty()) {
    try {
      protocol::save_config_file(path.toStdString(), config_);
    } catch (const std::exception& e) {
      if (error) *error = QString::fromStdString(e.what());
      return false;
    }
    written = dump(protocol::to_ordered_json(config_));
  } else {
    // Unknown keys or ill-typed values: keep them in the file rather than drop the user's work.
    written = canonicalText();
    QString why;
    if (!saveWhole(path, (written + "\n").toUtf8(), &why)) {
      if (error) *error = tr("Cannot write %1: %2").arg(path, why);
      return false;
    }
  }
  if (written != text_) {
    text_ = written;
    parseText();
    emit textChanged();
    emit contentChanged();
  }
  file_path_ = QFileInfo(path).absoluteFilePath();
  template_name_.clear();
  setModified(false);
  emit fileChanged();
  return true;
}

QString ExperimentDocument::displayName() const {
  if (!file_path_.isEmpty()) return QFileInfo(file_path_).fileName();
  if (!template_name_.isEmpty()) return tr("%1 (preset)").arg(template_name_);
  if (!init_from_.isEmpty()) return tr("%1 (imported)").arg(QFileInfo(init_from_).fileName());
  return tr("untitled");
}

void ExperimentDocument::setModified(bool modified) {
  if (modified_ == modified) return;
  modified_ = modified;
  emit modifiedChanged(modified_);
}

}  // namespace moe::ui
