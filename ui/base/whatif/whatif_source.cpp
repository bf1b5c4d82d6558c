#include "base/whatif/whatif_source.h"

#include <QDir>
#include <QFileInfo>

#include "base/run/run_files.h"
#include "base/whatif/synthetic_input.h"
#include "protocol/run_config.h"

namespace moe::ui {

QString findRunConfig(const QString& tensors) {
  QDir dir = QFileInfo(tensors).absoluteDir();
  for (int up = 0; up < 3; ++up) {
    const QString candidate = dir.filePath(QLatin1String(run_layout::kConfig));
    if (QFileInfo(candidate).isFile()) return candidate;
    if (!dir.cdUp()) break;
  }
  return {};
}

QStringList routingLayerPrefixes(const QString& tensors, QString* error) {
  const auto header = readSafetensorsHeader(tensors, error);
  if (!header) return {};
  const auto found = findRoutingLayers(*header, tensors, error);
  if (!found) return {};
  QStringList prefixes;
  for (const RoutingLayerShape& layer : found->layers)
    prefixes << QString::fromStdString(layer.prefix);
  return prefixes;
}

std::optional<WhatIfSource> loadWhatIfSource(const QString& tensors, const QString& prefix,
                                             QString* error, const QString& synthetic_file) {
  const auto header = readSafetensorsHeader(tensors, error);
  if (!header) return std::nullopt;
  const auto found = findRoutingLayers(*header, tensors, error);
  if (!found) return std::nullopt;
  const RoutingLayerShape* layer = found->layer(prefix.toStdString());
  if (!layer) {
    QStringList have;
    for (const RoutingLayerShape& l : found->layers)
      have << "'" + QString::fromStdString(l.prefix) + "'";
    if (error) {
      *error = QStringLiteral("%1: no MoE layer under the prefix '%2' (it has %3)")
                   .arg(tensors, prefix, have.join(", "));
    }
    return std::nullopt;
  }
  WhatIfSource source;
  source.tensors = source.server_tensors = tensors;
  source.prefix = prefix;
  source.layer = *layer;
  source.tokens = found->tokens;
  if (found->input_shape.empty() && !synthetic_file.isEmpty()) {
    source.synthetic_input = true;
    source.tokens = kSyntheticTokens;
    source.server_tensors = synthetic_file;
    if (!writeWithSyntheticInput(tensors, *header, prefix.toStdString(), kSyntheticTokens,
                                 layer->dim, kSyntheticSeed, synthetic_file, error)) {
      return std::nullopt;
    }
  } else if (const QString problem = inputProblem(*found, *layer, tensors); !problem.isEmpty()) {
    if (error) *error = problem;
    return std::nullopt;
  }
  nlohmann::json moe = nlohmann::json::object();
  const QString run_config = findRunConfig(tensors);
  source.config_note = QObject::tr("no run config.json beside the file: the engine's defaults");
  if (!run_config.isEmpty()) {
    QString why;
    try {
      const nlohmann::json config = protocol::read_config_json_file(run_config.toStdString());
      if (configMatches(*layer, config, &why)) {
        const auto seed = config.find("seed");
        if (seed != config.end() && seed->is_number_integer()) source.captured.seed = *seed;
        moe = config["moe"];
        source.config_file = run_config;
        source.config_note = QObject::tr("the run's %1").arg(QFileInfo(run_config).fileName());
      } else {
        source.config_note =
            QObject::tr("%1 does not describe this layer (%2): the engine's defaults")
                .arg(QDir::toNativeSeparators(run_config), why);
      }
    } catch (const std::exception& e) {
      source.config_note =
          QObject::tr("%1 unreadable (%2): the engine's defaults").arg(run_config, e.what());
    }
  }
  source.config = replayConfig(*layer, moe);
  const int64_t seed = source.captured.seed;
  source.captured = routingSettingFrom(source.config["moe"]);
  source.captured.seed = seed;
  return source;
}

}  // namespace moe::ui
