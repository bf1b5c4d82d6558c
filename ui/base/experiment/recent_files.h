// RecentFiles: the experiment files opened or saved last, newest first, at most kMax, kept in
// QSettings (key "experiment/recentFiles") so the list survives a restart.
#pragma once

#include <QObject>
#include <QStringList>

namespace moe::ui {

class RecentFiles : public QObject {
  Q_OBJECT

 public:
  static constexpr int kMax = 10;

  explicit RecentFiles(QObject* parent = nullptr);

  QStringList files() const;
  // Moves (or adds) `path` to the front and drops the oldest beyond kMax.
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

 signals:
  void changed();

 private:
  void store(const QStringList& files);
};

}  // namespace moe::ui
