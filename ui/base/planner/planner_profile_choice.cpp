#include "base/planner/planner_profile_choice.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>

#include <exception>
#include <variant>

#include "base/storage/worker_task.h"

namespace moe::ui {
namespace {

// Every live choice, so that one setChoice() reaches the editor, the Scaling view and the
// dashboard alike (GUI thread only).
QList<PlannerProfileChoice*>& liveChoices() {
  static QList<PlannerProfileChoice*> choices;
  return choices;
}

using LoadResult = std::variant<plan::HardwareProfile, QString>;

LoadResult loadChoice(const QString& choice) {
  try {
    return plan::load_profile(choice.toStdString());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

}  // namespace

PlannerProfileChoice::PlannerProfileChoice(QObject* parent) : QObject(parent) {
  liveChoices().append(this);
}

PlannerProfileChoice::~PlannerProfileChoice() {
  liveChoices().removeAll(this);
}

QString PlannerProfileChoice::thisMachinePath() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath(QStringLiteral("profiles/this-machine.json"));
}

QString PlannerProfileChoice::currentChoice() {
  const QString stored = QSettings().value(kSettingsKey).toString().trimmed();
  if (!stored.isEmpty()) return stored;
  return QFileInfo::exists(thisMachinePath()) ? thisMachinePath() : QString(kFallback);
}

QList<PlannerProfileOption> PlannerProfileChoice::availableProfiles() {
  QList<PlannerProfileOption> options;
  for (const std::string& name : plan::shipped_profile_names()) {
    PlannerProfileOption option{QString::fromStdString(name), QString::fromStdString(name), {}};
    try {
      const plan::HardwareProfile profile = plan::load_profile(name);
      option.tooltip = QString::fromStdString(profile.description);
      option.label = QStringLiteral("%1 — %2").arg(option.choice, option.tooltip);
    } catch (const std::exception& e) {
      option.tooltip = QString::fromStdString(e.what());
    }
    options.append(option);
  }
  const QString machine = thisMachinePath();
  if (QFileInfo::exists(machine)) {
    options.append({machine, tr("This machine (measured)"), machine});
  }
  return options;
}

void PlannerProfileChoice::setChoice(const QString& choice) {
  const QString trimmed = choice.trimmed();
  QSettings settings;
  if (trimmed.isEmpty()) {
    settings.remove(kSettingsKey);
  } else {
    settings.setValue(kSettingsKey, trimmed);
  }
  const QString now = currentChoice();
  // A slot of changed() may delete a view and its choice: walk guarded copies.
  QList<QPointer<PlannerProfileChoice>> live;
  for (PlannerProfileChoice* choice : liveChoices()) live.append(choice);
  for (const QPointer<PlannerProfileChoice>& choice : live) {
    if (choice) emit choice->changed(now);
    if (choice) choice->load();
  }
}

void PlannerProfileChoice::load() {
  const quint64 generation = ++generation_;
  runOnWorker(
      this, [choice = currentChoice()] { return loadChoice(choice); },
      [this, generation](const LoadResult& result) {
        if (generation != generation_) return;  // a newer choice is on its way
        if (const auto* profile = std::get_if<plan::HardwareProfile>(&result)) {
          profile_ = *profile;
          error_.clear();
          emit loaded(*profile_);
        } else {
          profile_.reset();
          error_ = std::get<QString>(result);
          emit failed(error_);
        }
      });
}

}  // namespace moe::ui
