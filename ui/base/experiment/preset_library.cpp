#include "base/experiment/preset_library.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>
#include <QSet>

namespace moe::ui {

QStringList PresetLibrary::defaultFolders() {
  QStringList candidates = {QStringLiteral("/usr/share/moe-studio/presets")};
#ifdef MOE_PRESETS_DIR
  candidates << QStringLiteral(MOE_PRESETS_DIR);
#endif
  QStringList folders;
  for (const QString& dir : candidates) {
    if (QFileInfo(dir).isDir()) folders << dir;
  }
  return folders;
}

QList<Preset> PresetLibrary::presets() const {
  QList<Preset> out;
  QSet<QString> seen;
  for (const QString& folder : folders_) {
    const QFileInfoList files =
        QDir(folder).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable);
    for (const QFileInfo& file : files) {
      const QString name = file.completeBaseName();
      if (seen.contains(name)) continue;
      seen.insert(name);
      out.append({name, file.absoluteFilePath()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Preset& a, const Preset& b) { return a.name < b.name; });
  return out;
}

QString PresetLibrary::path(const QString& name) const {
  for (const Preset& p : presets()) {
    if (p.name == name) return p.path;
  }
  return {};
}

}  // namespace moe::ui
