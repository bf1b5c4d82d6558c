#include "base/targets/target_store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSettings>
#include <QtDebug>

namespace moe::ui {

namespace {

const QString kTargetsKey = QStringLiteral("launch/targets");
const QString kCurrentKey = QStringLiteral("launch/currentTarget");
const QString kLocal = QStringLiteral("local");

QString localProblem(const QString& name) {
  return QStringLiteral("name: \"%1\" is this machine; it cannot be changed or removed").arg(name);
}

}  // namespace

TargetStore::TargetStore(QObject* parent) : QObject(parent) {
  const QSettings settings;
  const QByteArray text = settings.value(kTargetsKey).toString().toUtf8();
  if (!text.isEmpty()) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (!document.isArray()) {
      qWarning("settings %s: not a JSON array (%s); saved targets ignored", qPrintable(kTargetsKey),
               qPrintable(error.errorString()));
    }
    for (const QJsonValue& value : document.array()) {
      const Target target = Target::fromJson(value.toObject());
      // Kept even when invalid now (a deleted identity file): the dialog shows what to fix.
      if (!target.isRemote() || target.name.isEmpty() || contains(target.name)) {
        qWarning("settings %s: skipped an entry that is not a remote target with a unique name",
                 qPrintable(kTargetsKey));
        continue;
      }
      saved_ << target;
    }
  }
  current_ = settings.value(kCurrentKey, kLocal).toString();
  if (!contains(current_)) current_ = kLocal;
}

QList<Target> TargetStore::targets() const {
  return QList<Target>{Target::local()} + saved_;
}

std::optional<Target> TargetStore::find(const QString& name) const {
  if (name == kLocal) return Target::local();
  const int index = indexOf(name);
  if (index < 0) return std::nullopt;
  return saved_[index];
}

int TargetStore::indexOf(const QString& name) const {
  for (int i = 0; i < saved_.size(); ++i) {
    if (saved_[i].name == name) return i;
  }
  return -1;
}

QStringList TargetStore::problemsOf(const Target& target, int index) const {
  QStringList problems;
  if (!target.isRemote()) {
    problems << QStringLiteral("kind: only SSH and Slurm targets can be saved");
  }
  problems << target.validate();
  const int same_name = indexOf(target.name);
  if (same_name >= 0 && same_name != index) {
    problems << QStringLiteral("name: a target named \"%1\" exists already").arg(target.name);
  }
  return problems;
}

QStringList TargetStore::add(const Target& target) {
  const QStringList problems = problemsOf(target, -1);
  if (!problems.isEmpty()) return problems;
  saved_ << target;
  save();
  emit changed();
  return {};
}

QStringList TargetStore::replace(const QString& name, const Target& target) {
  if (name == kLocal) return {localProblem(name)};
  const int index = indexOf(name);
  if (index < 0) return {QStringLiteral("name: no target named \"%1\"").arg(name)};
  const QStringList problems = problemsOf(target, index);
  if (!problems.isEmpty()) return problems;
  saved_[index] = target;
  const bool renamed_current = current_ == name && target.name != name;
  if (renamed_current) current_ = target.name;
  save();
  emit changed();
  if (renamed_current) emit currentChanged(current_);
  return {};
}

QStringList TargetStore::remove(const QString& name) {
  if (name == kLocal) return {localProblem(name)};
  const int index = indexOf(name);
  if (index < 0) return {QStringLiteral("name: no target named \"%1\"").arg(name)};
  saved_.removeAt(index);
  const bool removed_current = current_ == name;
  if (removed_current) current_ = kLocal;
  save();
  emit changed();
  if (removed_current) emit currentChanged(current_);
  return {};
}

Target TargetStore::current() const {
  return find(current_).value_or(Target::local());
}

bool TargetStore::setCurrentName(const QString& name) {
  if (!contains(name)) return false;
  if (name == current_) return true;
  current_ = name;
  QSettings().setValue(kCurrentKey, current_);
  emit currentChanged(current_);
  return true;
}

void TargetStore::save() {
  QJsonArray array;
  for (const Target& target : saved_) array << target.toJson();
  QSettings settings;
  settings.setValue(kTargetsKey,
                    QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
  settings.setValue(kCurrentKey, current_);
}

}  // namespace moe::ui
