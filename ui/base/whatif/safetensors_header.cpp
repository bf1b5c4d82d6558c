#include "base/whatif/safetensors_header.h"

#include <QStringList>

namespace moe::ui {

QString shapeText(const std::vector<int64_t>& shape) {
  QStringList sizes;
  for (int64_t s : shape) sizes << QString::number(s);
  return "[" + sizes.join(", ") + "]";
}

std::optional<SafetensorsHeader> readSafetensorsHeader(const QString& path, QString* error) {
  try {
    return protocol::read_safetensors_header(path.toStdString());
  } catch (const protocol::SafetensorsError& e) {
    if (error) *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

}  // namespace moe::ui
