#pragma once
// A real moe-train run that captures its MoE layers (telemetry.capture_every), for the What-if
// tests: its directory holds config.json, metrics.jsonl and captures/step-S/layer-L.safetensors.
#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>

namespace moe::test {

constexpr int kEngineTimeoutMs = 300000;  // two shared cores: be patient

// Runs `moe-train run --config <dir>/<name>.json --run-dir <dir>/<name>`; the run directory, or
// empty with *error holding why (its exit status and stderr).
inline QString runWithCaptures(const QString& dir, const QString& name, const QByteArray& config,
                               QString* error) {
  const QString config_file = dir + "/" + name + ".json";
  QFile file(config_file);
  if (!file.open(QIODevice::WriteOnly) || file.write(config) != config.size()) {
    *error = "cannot write " + config_file;
    return {};
  }
  file.close();
  const QString run_dir = dir + "/" + name;
  QProcess train;
  train.setProcessChannelMode(QProcess::SeparateChannels);
  train.setStandardOutputFile(QProcess::nullDevice());
  train.start(QStringLiteral(MOE_TRAIN_BIN),
              {"run", "--config", config_file, "--run-dir", run_dir});
  if (!train.waitForFinished(kEngineTimeoutMs) || train.exitStatus() != QProcess::NormalExit ||
      train.exitCode() != 0) {
    *error = QString("moe-train run ended with %1: %2")
                 .arg(train.exitCode())
                 .arg(QString::fromUtf8(train.readAllStandardError()));
    return {};
  }
  return run_dir;
}

}  // namespace moe::test
