// TargetStore: the launch targets the user saved, kept in the app's settings (QSettings key
// "launch/targets", one JSON array) so they survive a restart, and the one the Run action uses
// ("launch/currentTarget"). "local" (this machine) is always the first target and can be neither
// edited nor removed. Every change is validated first (Target::validate(), unique names).
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "base/remote/target.h"

namespace moe::ui {

class TargetStore : public QObject {
  Q_OBJECT

 public:
  // Reads the saved targets; entries that cannot be read are skipped with a warning.
  explicit TargetStore(QObject* parent = nullptr);

  QList<Target> targets() const;  // "local" first, then the saved ones in the order added
  std::optional<Target> find(const QString& name) const;
  bool contains(const QString& name) const { return find(name).has_value(); }

  // Each returns the problems that stopped the change (empty: done, saved, changed() emitted).
  QStringList add(const Target& target);
  // Replaces the target named `name` (it may be renamed; the current target follows it).
  QStringList replace(const QString& name, const Target& target);
  QStringList remove(const QString& name);

  // The target runs start on; "local" when none was chosen or the chosen one was removed.
  QString currentName() const { return current_; }
  Target current() const;
  // False, changing nothing, when no target has that name.
  bool setCurrentName(const QString& name);

 signals:
  void changed();
  void currentChanged(const QString& name);

 private:
  // The problems of `target` taking the place of the saved target at `index` (-1: a new one).
  QStringList problemsOf(const Target& target, int index) const;
  int indexOf(const QString& name) const;  // among saved_; -1 when absent
  void save();

  QList<Target> saved_;  // without "local"
  QString current_;
};

}  // namespace moe::ui
