// Files written all or nothing. QSaveFile alone is not enough on a full disk: Qt 6.4's commit()
// can report success after the bytes failed to reach the disk, putting an empty file in place of
// the old one (a full tmpfs shows it). An explicit flush before the commit catches that.
#pragma once

#include <QByteArray>
#include <QSaveFile>
#include <QString>

namespace moe::ui {

// Commits `file` (opened and written) when every byte reached the disk; else cancels it, leaving
// what was at its path as it was, and returns false with *why (the system's reason).
bool commitWhole(QSaveFile& file, QString* why = nullptr);

// Writes `bytes` to `path` all or nothing (commitWhole); false with *why.
bool saveWhole(const QString& path, const QByteArray& bytes, QString* why = nullptr);

}  // namespace moe::ui
