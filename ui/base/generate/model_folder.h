// What a folder given to the Generate tab is, read the way `moe-train generate --model` reads it
// (a Hugging Face folder, a run directory with a checkpoint, or a checkpoint step directory), so
// that the tab can say before starting what is wrong with it, and whether prompts can be text
// (the model has a tokenizer.json) or must be token ids. Reads files: call it off the GUI thread.
#pragma once

#include <QString>

namespace moe::ui {

struct ModelFolder {
  enum class Kind { HuggingFace, Run, Checkpoint, Invalid };
  Kind kind = Kind::Invalid;
  QString path;
  QString error;    // Invalid: what is wrong, naming the folder
  QString summary;  // "Hugging Face folder (olmoe)", "run tiny-mixtral, checkpoint step-2"
  bool has_tokenizer = false;
  int vocab = 0;  // 0 when unknown

  bool ok() const { return kind != Kind::Invalid; }
};

ModelFolder inspectModelFolder(const QString& path);

}  // namespace moe::ui
