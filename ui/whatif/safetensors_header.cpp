#include "whatif/safetensors_header.h"

#include <QFile>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace moe::ui {

namespace {

// A header larger than this is not a layer's capture or a checkpoint's table of contents.
constexpr uint64_t kMaxHeaderBytes = 100ull << 20;

}  // namespace

const TensorEntry* SafetensorsHeader::find(const std::string& name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}

QString shapeText(const std::vector<int64_t>& shape) {
  QStringList sizes;
  for (int64_t s : shape) sizes << QString::number(s);
  return "[" + sizes.join(", ") + "]";
}

std::optional<SafetensorsHeader> readSafetensorsHeader(const QString& path, QString* error) {
  auto fail = [&](const QString& why) -> std::optional<SafetensorsHeader> {
    if (error) *error = path + ": " + why;
    return std::nullopt;
  };
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return fail(file.errorString());
  const auto size = static_cast<uint64_t>(file.size());
  const QByteArray length_bytes = file.read(8);
  if (length_bytes.size() != 8) return fail(QStringLiteral("too short for a safetensors file"));
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<uint8_t>(length_bytes[i]);
  if (length > kMaxHeaderBytes || length > size - 8) {
    return fail(
        QStringLiteral("header length %1 does not fit a file of %2 bytes").arg(length).arg(size));
  }
  const QByteArray text = file.read(static_cast<qint64>(length));
  if (static_cast<uint64_t>(text.size()) != length) return fail(file.errorString());
  const nlohmann::json json = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (!json.is_object()) return fail(QStringLiteral("the header is not a JSON object"));

  SafetensorsHeader header;
  header.data_offset = 8 + length;
  const uint64_t data_bytes = size - header.data_offset;
  for (const auto& [name, item] : json.items()) {
    if (name == "__metadata__") continue;
    const QString where = QStringLiteral("tensor '%1': ").arg(QString::fromStdString(name));
    if (!item.is_object()) return fail(where + "not an object");
    TensorEntry entry;
    const auto dtype = item.find("dtype");
    if (dtype == item.end() || !dtype->is_string()) return fail(where + "no dtype");
    entry.dtype = dtype->get<std::string>();
    const auto shape = item.find("shape");
    if (shape == item.end() || !shape->is_array()) return fail(where + "no shape");
    for (const auto& s : *shape) {
      if (!s.is_number_unsigned()) return fail(where + "a size in its shape is not a count");
      entry.shape.push_back(s.get<int64_t>());
    }
    const auto offsets = item.find("data_offsets");
    if (offsets == item.end() || !offsets->is_array() || offsets->size() != 2 ||
        !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned()) {
      return fail(where + "no data_offsets [begin, end]");
    }
    entry.begin = (*offsets)[0].get<uint64_t>();
    entry.end = (*offsets)[1].get<uint64_t>();
    if (entry.begin > entry.end || entry.end > data_bytes) {
      return fail(where + QStringLiteral("data_offsets [%1, %2] outside the %3 bytes of data")
                              .arg(entry.begin)
                              .arg(entry.end)
                              .arg(data_bytes));
    }
    header.tensors.emplace(name, std::move(entry));
  }
  return header;
}

}  // namespace moe::ui
