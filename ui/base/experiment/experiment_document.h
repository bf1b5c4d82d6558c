// ExperimentDocument: the one model behind the experiment editor. It holds the JSON text the user
// sees, the last JSON that parsed, the RunConfig read from it, every problem protocol::check finds
// (or the JSON syntax error), the file it came from and a modified flag. The form and the JSON view
// both edit it and both redraw from its signals, so they never talk to each other directly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include "protocol/config_error.h"
#include "protocol/config_validation.h"
#include "protocol/run_config.h"

namespace moe::ui {

// Where the JSON text stops parsing. line and column are 1-based; column counts characters.
struct JsonSyntaxError {
  int line = 1, column = 1;
  int position = 0;     // character offset into the text, for moving a cursor there
  std::string message;  // nlohmann's reason, e.g. "syntax error while parsing object ..."
};

class ExperimentDocument : public QObject {
  Q_OBJECT

 public:
  explicit ExperimentDocument(QObject* parent = nullptr);

  // --- Content ---
  const QString& text() const { return text_; }
  // The last text that parsed as JSON (kept while the text has a syntax error).
  const nlohmann::json& json() const { return json_; }
  // json() read by protocol::parse_config: well-typed values applied, defaults elsewhere.
  const protocol::RunConfig& config() const { return config_; }
  // Every problem of json(), in key order: protocol::check, and what a local run cannot do
  // (local_target.h: parallel.nodes > 1).
  const std::vector<protocol::ConfigProblem>& problems() const { return problems_; }
  const std::optional<JsonSyntaxError>& syntaxError() const { return syntax_error_; }
  bool hasSyntaxError() const { return syntax_error_.has_value(); }
  // The config can be run here: the text parses and problems() is empty.
  bool isValid() const { return !syntax_error_ && problems_.empty(); }
  // The text a form edit or a save produces: the resolved config in documented key order, with the
  // user's values (even ill-typed ones and unknown keys) kept where json() has them.
  QString canonicalText() const;

  // --- Editing ---
  // From the JSON view: parses `text`. On a syntax error the text is kept as typed and json(),
  // config() and problems() keep their last values.
  void setText(const QString& text);
  // From the form: sets the value at `pointer` ("/moe/top_k") in json(), creating objects on the
  // way, and rewrites the text canonically. Ignored while the text has a syntax error.
  void setValue(const std::string& pointer, const nlohmann::json& value);
  // Replaces the whole document (defaults: {}), canonical text, not modified, no file.
  void reset(const nlohmann::json& json = nlohmann::json::object());

  // How problems are checked; check_files is on for local runs (data.path must exist here).
  const protocol::ValidateOptions& validateOptions() const { return options_; }
  void setValidateOptions(const protocol::ValidateOptions& options);

  // --- Files ---
  // Reads a config file into the document; a file with a JSON syntax error still opens (as text)
  // so it can be fixed. `as_template` (presets): the document gets no file path, so Save asks
  // where to write. False with *error set when the file cannot be read.
  bool open(const QString& path, QString* error, bool as_template = false);
  // Writes the resolved config (protocol::save_config_file; canonicalText() when some values do
  // not parse, so nothing the user typed is lost), then shows that text and records the path.
  // Refuses while the text has a syntax error.
  bool save(const QString& path, QString* error);

  const QString& filePath() const { return file_path_; }
  // The file name, the preset's name, "<model folder> (imported)", or "untitled".
  QString displayName() const;

  // --- Initial weights ---
  // A config read from a Hugging Face model folder (HfImport): like reset(), but unsaved and
  // named after the folder, and runs of it start from the folder's weights (initFrom()).
  void resetImported(const nlohmann::json& json, const QString& model_dir);
  // The weights a new run of this experiment starts from (moe-train run --init-from); empty:
  // freshly initialised. Kept across saves; another open, reset or import replaces it.
  const QString& initFrom() const { return init_from_; }
  bool isModified() const { return modified_; }
  void setModified(bool modified);

 signals:
  // text() changed (any source). Views compare with what they show before redrawing.
  void textChanged();
  // json(), config(), problems() or the syntax error changed.
  void contentChanged();
  void modifiedChanged(bool modified);
  // filePath() or displayName() changed.
  void fileChanged();

 private:
  void parseText();
  void recheck();
  void applyText(const QString& text, bool modified);

  QString text_;
  nlohmann::json json_ = nlohmann::json::object();
  protocol::RunConfig config_;
  std::vector<protocol::ConfigProblem> problems_;
  std::vector<protocol::ConfigProblem> parse_problems_;  // the structural subset of problems_
  std::optional<JsonSyntaxError> syntax_error_;
  protocol::ValidateOptions options_;
  QString file_path_, template_name_;
  QString init_from_;
  bool modified_ = false;
};

}  // namespace moe::ui
