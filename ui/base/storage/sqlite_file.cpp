#include "base/storage/sqlite_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QStringList>
#include <QVariant>

#include <atomic>

namespace moe::ui {

namespace {

std::atomic<int> g_next_connection{0};

// Every SQLite 3 database starts with these 16 bytes. Checked before the driver touches the file,
// so a file that is something else is never written to.
bool hasSqliteHeader(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  return file.read(16) == QByteArray("SQLite format 3\0", 16);
}

}  // namespace

SqliteFile::SqliteFile(QString path, const QString& connection_prefix)
    : path_(std::move(path)),
      connection_(QStringLiteral("%1_%2").arg(connection_prefix).arg(g_next_connection++)) {}

SqliteFile::~SqliteFile() {
  if (!QSqlDatabase::contains(connection_)) return;
  {
    QSqlDatabase db = QSqlDatabase::database(connection_, /*open=*/false);
    db.close();
  }  // the last handle must be gone before removeDatabase
  QSqlDatabase::removeDatabase(connection_);
}

QString SqliteFile::defaultPath(const QString& file_name) {
  return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
         QStringLiteral("/moe-studio/") + file_name;
}

bool SqliteFile::open(QString* error) {
  const QFileInfo info(path_);
  if (info.exists() && !info.isFile()) return fail(QStringLiteral("not a file"), error);
  if (info.exists() && info.size() > 0 && !hasSqliteHeader(path_)) {
    return fail(QStringLiteral("not a SQLite database (the file was left as it is)"), error);
  }
  if (!QDir().mkpath(info.absolutePath())) {
    return fail(QStringLiteral("cannot create the folder ") + info.absolutePath(), error);
  }
  QSqlDatabase db = QSqlDatabase::contains(connection_)
                        ? QSqlDatabase::database(connection_, false)
                        : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection_);
  if (!db.isValid()) {
    return fail(QStringLiteral("the Qt SQLite driver (QSQLITE) is not available"), error);
  }
  db.setDatabaseName(path_);
  // Another connection (a worker's) may hold the write lock for a moment.
  db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=3000"));
  if (!db.open()) return fail(db.lastError().text(), error);
  return true;
}

QSqlDatabase SqliteFile::database() const {
  return QSqlDatabase::database(connection_, /*open=*/false);
}

bool SqliteFile::tables(QStringList* names, QString* error) const {
  QSqlQuery q(database());
  if (!q.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'"))) {
    if (error) *error = q.lastError().text();
    return false;
  }
  names->clear();
  while (q.next()) *names << q.value(0).toString();
  return true;
}

bool SqliteFile::fail(const QString& message, QString* error) {
  if (error) *error = path_ + QStringLiteral(": ") + message;
  if (QSqlDatabase::contains(connection_)) database().close();
  return false;
}

}  // namespace moe::ui
