// PresetLibrary: the experiment presets (RunConfig JSON files named <preset>.json). The installed
// folder (/usr/share/moe-studio/presets) comes first when it exists, then the source tree's
// resources/presets (MOE_PRESETS_DIR), so a development build finds them without installing.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace moe::ui {

struct Preset {
  QString name;  // file name without .json: "fashion-mnist"
  QString path;
};

class PresetLibrary {
 public:
  // The default search folders, those that exist, in priority order.
  static QStringList defaultFolders();

  PresetLibrary() : PresetLibrary(defaultFolders()) {}
  explicit PresetLibrary(QStringList folders) : folders_(std::move(folders)) {}

  const QStringList& folders() const { return folders_; }
  // Every preset by name; a name found in several folders comes from the first one.
  QList<Preset> presets() const;
  // The preset's path, or "" when there is none by that name.
  QString path(const QString& name) const;

 private:
  QStringList folders_;
};

}  // namespace moe::ui
